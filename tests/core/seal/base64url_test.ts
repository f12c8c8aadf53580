// Base64url for nonces and MACs: one spelling per byte string.

import assert from "node:assert/strict";
import { fc } from "../../dev_deps.ts";
import { decodeBase64url, encodeBase64url } from "../../../src/core/seal/_base64url.ts";

function reference(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

Deno.test("encodeBase64url() matches btoa, unpadded and URL-safe (property)", () => {
  fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => encodeBase64url(bytes) === reference(bytes)));
});

Deno.test("decodeBase64url() inverts encodeBase64url() (property)", () => {
  fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
    assert.deepEqual(decodeBase64url(encodeBase64url(bytes), bytes.length), bytes);
  }));
});

Deno.test("decodeBase64url() refuses a wrong length, a foreign character, padding and non-zero unused bits", () => {
  const nonce = encodeBase64url(new Uint8Array(16));
  assert.equal(nonce, "AAAAAAAAAAAAAAAAAAAAAA");
  assert.ok(decodeBase64url(nonce, 16));
  assert.equal(decodeBase64url(nonce, 15), undefined);
  assert.equal(decodeBase64url(nonce + "==", 16), undefined);
  assert.equal(decodeBase64url("AAAAAAAAAAAAAAAAAAAA+A", 16), undefined);
  assert.equal(decodeBase64url("AAAAAAAAAAAAAAAAAAAAAé", 16), undefined);
  assert.equal(decodeBase64url("AAAAAAAAAAAAAAAAAAAAAB", 16), undefined);
  assert.ok(decodeBase64url("AAAAAAAAAAAAAAAAAAAAAQ", 16));
});

Deno.test("decodeBase64url() accepts exactly one spelling of each byte string (property)", () => {
  fc.assert(fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{22}$/), (text) => {
    const bytes = decodeBase64url(text, 16);
    return bytes === undefined || encodeBase64url(bytes) === text;
  }));
});
