// resolveUri answers a plain fragment (`#/$defs/a`, the common `$ref`) without parsing a URL: its answer must be the
// URL parser's, for any such fragment against any base the index holds (an absolute URI as the parser writes it).

import assert from "node:assert/strict";
import { fc } from "../../dev_deps.ts";
import { resolveUri, ROOT_BASE } from "../../../src/core/schema/validator/_refs.ts";

const BASES = [
  ROOT_BASE,
  "salvor:/root",
  "https://example.com/schemas/a.json",
  "https://example.com/schemas/a.json#frag",
  "urn:uuid:deadbeef-1234-0000-0000-4321fedcba98",
  "http://example.com",
  "file:///tmp/x",
].map((base) => new URL(base).href);

Deno.test("resolveUri() resolves any fragment as the URL parser does, plain or not", () => {
  const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)) });
  const anyText = fc.string({ unit: "binary" });
  fc.assert(
    fc.property(fc.oneof(printable, anyText), fc.constantFrom(...BASES), (fragment, base) => {
      const reference = `#${fragment}`;
      assert.equal(resolveUri(reference, base), new URL(reference, base).href);
    }),
    { numRuns: 5_000 },
  );
  for (const reference of ["#", "#/$defs/a b", '#/"x"', "#<a>", "#`", "#/a%20b", "#a#b", "#/é", "#\u0000"]) {
    for (const base of BASES) assert.equal(resolveUri(reference, base), new URL(reference, base).href, reference);
  }
});

Deno.test("resolveUri() gives undefined for a reference that does not parse, and resolves others by URL", () => {
  assert.equal(resolveUri("http://[bad", ROOT_BASE), undefined);
  assert.equal(resolveUri("b.json#/x", "https://example.com/schemas/a.json"), "https://example.com/schemas/b.json#/x");
});
