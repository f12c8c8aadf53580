// The text a seal's MAC covers: one text per JSON value, whatever the key
// order, and never one text for two values.

import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { fc } from "../../dev_deps.ts";
import { canonicalJson } from "../../../src/core/seal/_canonical_json.ts";

/** The same value with the keys of every object inserted in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).reverse()) {
    Object.defineProperty(out, key, {
      value: reversed((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** What a value means as JSON: -0 is 0. */
function asJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

// Strings of any UTF-16 units, lone surrogates included.
const anyString = fc.string({ unit: "binary" });
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    anyString,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(anyString, fc.constantFrom("__proto__", "10", "2", "a", "b")), tie("value"), {
      maxKeys: 4,
    }),
  ),
})).value;

Deno.test("canonicalJson() sorts keys by UTF-16 code units at every level and writes no whitespace", () => {
  assert.equal(canonicalJson({ b: 1, a: [1, { d: 2, c: 3 }] }), '{"a":[1,{"c":3,"d":2}],"b":1}');
  assert.equal(canonicalJson({ 2: "x", 10: "y", a: "z" }), '{"10":"y","2":"x","a":"z"}');
  assert.equal(canonicalJson({ "\uffff": 1, "\ud83d\ude00": 2 }), '{"\ud83d\ude00":2,"\uffff":1}');
});

Deno.test("canonicalJson() leaves out undefined properties and writes -0 as 0", () => {
  assert.equal(canonicalJson({ a: undefined, b: { c: undefined } }), '{"b":{}}');
  assert.equal(canonicalJson([-0, 1e21, 0.1]), "[0,1e+21,0.1]");
});

Deno.test("canonicalJson() escapes a lone surrogate, so its UTF-8 bytes differ from another's", () => {
  const utf8 = new TextEncoder();
  assert.equal(canonicalJson("\ud800"), '"\\ud800"');
  assert.notDeepEqual(utf8.encode(canonicalJson("\ud800")), utf8.encode(canonicalJson("\ud801")));
});

Deno.test("canonicalJson() refuses what JSON cannot carry, naming where", () => {
  const refusals: [unknown, RegExp][] = [
    [{ a: [1, NaN] }, /the number NaN, which JSON cannot carry at \/a\/1$/],
    [{ a: -Infinity }, /the number -Infinity/],
    [{ "x/y~": 1n }, /a bigint, which JSON cannot carry at \/x~1y~0$/],
    [{ f() {} }, /a function/],
    [[Symbol("s")], /a symbol/],
    [undefined, /holds undefined, which JSON cannot carry$/],
    [[undefined], /holds undefined in an array/],
    [[, 1], /holds undefined in an array/],
    [new Date(0), /neither a plain object nor an array$/],
    [{ m: new Map() }, /neither a plain object nor an array at \/m$/],
  ];
  for (const [value, message] of refusals) assert.throws(() => canonicalJson(value), { name: "TypeError", message });
  const cyclic: unknown[] = [];
  cyclic.push({ back: cyclic });
  assert.throws(() => canonicalJson(cyclic), { name: "TypeError", message: /holds a cycle at \/0\/back$/ });
});

Deno.test("canonicalJson() accepts a shared value that is not a cycle, and an object without a prototype", () => {
  const shared = { x: 1 };
  assert.equal(canonicalJson({ a: shared, b: shared }), '{"a":{"x":1},"b":{"x":1}}');
  assert.equal(canonicalJson(Object.assign(Object.create(null), { a: 1 })), '{"a":1}');
});

Deno.test("canonicalJson() throws a RangeError at its bounds, not a stack overflow", () => {
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.throws(() => canonicalJson(deep), { name: "RangeError", message: /nests deeper than 64 levels/ });
  assert.throws(() => canonicalJson("x".repeat(100), { maxDepth: 64, maxChars: 50 }), {
    name: "RangeError",
    message: "Cannot encode the value as its JSON exceeds 50 characters",
  });
  let exactly: unknown = 1;
  for (let i = 0; i < 64; i++) exactly = [exactly];
  assert.doesNotThrow(() => canonicalJson(exactly));
  assert.throws(() => canonicalJson([exactly]), RangeError);
});

Deno.test("canonicalJson() does not depend on key order (property)", () => {
  fc.assert(fc.property(json, (value) => canonicalJson(value) === canonicalJson(reversed(value))), {
    numRuns: 500,
  });
});

Deno.test("canonicalJson() is JSON that parses back to the value, so distinct values encode distinctly (property)", () => {
  fc.assert(
    fc.property(json, (value) => isDeepStrictEqual(JSON.parse(canonicalJson(value)), asJson(value))),
    { numRuns: 500 },
  );
});

Deno.test("canonicalJson() gives two values the same text only when they are the same JSON (property)", () => {
  const utf8 = new TextEncoder();
  fc.assert(
    fc.property(json, json, (a, b) => {
      const same = isDeepStrictEqual(asJson(a), asJson(b));
      const sameBytes = isDeepStrictEqual(utf8.encode(canonicalJson(a)), utf8.encode(canonicalJson(b)));
      return same === sameBytes;
    }),
    { numRuns: 500 },
  );
  // Pairs that differ by a little, which random pairs rarely are.
  fc.assert(
    fc.property(json, anyString, (value, key) => {
      const a = { [key]: value };
      const b = { [key]: [value] };
      return canonicalJson(a) !== canonicalJson(b);
    }),
  );
});
