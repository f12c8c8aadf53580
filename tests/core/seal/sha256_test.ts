// The record seal's SHA-256, fed a piece at a time, against WebCrypto's
// digest of the same bytes whole: every length around a block's edges and
// the padding's, cut into pieces at random places.

import assert from "node:assert/strict";
import { Sha256 } from "../../../src/core/seal/_sha256.ts";

async function webDigest(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

function fedInPieces(bytes: Uint8Array, cuts: readonly number[]): Uint8Array {
  const hash = new Sha256();
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    hash.update(bytes.subarray(at, cut));
    at = cut;
  }
  return hash.digest();
}

Deno.test("SHA-256 fed in pieces equals WebCrypto's digest for every length up to three blocks and a few long ones", async () => {
  const lengths = [...Array.from({ length: 200 }, (_, i) => i), 1_000, 4_096, 65_537, 1_000_003];
  for (const length of lengths) {
    const bytes = new Uint8Array(length).map((_, i) => (i * 2_654_435_761) >>> 24 ^ length);
    const cuts = Array.from({ length: 4 }, () => Math.floor(Math.random() * (length + 1))).sort((a, b) => a - b);
    assert.deepEqual(fedInPieces(bytes, cuts), await webDigest(bytes), `${length} bytes cut at ${cuts}`);
    assert.deepEqual(fedInPieces(bytes, []), await webDigest(bytes), `${length} bytes whole`);
  }
});

Deno.test("SHA-256 of the standard's examples", () => {
  const hex = (text: string) =>
    Array.from(fedInPieces(new TextEncoder().encode(text), []), (byte) => byte.toString(16).padStart(2, "0")).join("");
  assert.equal(hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(
    hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
});
