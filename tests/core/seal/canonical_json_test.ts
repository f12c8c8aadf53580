// The text a seal's MAC covers: one text per JSON value, whatever the key
// order, and never one text for two values.

import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { fc } from "../../dev_deps.ts";
import {
  CANONICAL_LIMITS,
  type CanonicalLimits,
  canonicalRead,
  canonicalReadPaced,
} from "../../../src/core/seal/_canonical_json.ts";

/** The canonical text whole. */
function canonicalJson(value: unknown, limits?: CanonicalLimits): string {
  return canonicalRead(value, limits).pieces.join("");
}

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

Deno.test("canonicalRead() sorts keys by UTF-16 code units at every level and writes no whitespace", () => {
  assert.equal(canonicalJson({ b: 1, a: [1, { d: 2, c: 3 }] }), '{"a":[1,{"c":3,"d":2}],"b":1}');
  assert.equal(canonicalJson({ 2: "x", 10: "y", a: "z" }), '{"10":"y","2":"x","a":"z"}');
  assert.equal(canonicalJson({ "\uffff": 1, "\ud83d\ude00": 2 }), '{"\ud83d\ude00":2,"\uffff":1}');
});

Deno.test("canonicalRead() leaves out undefined properties and writes -0 as 0", () => {
  assert.equal(canonicalJson({ a: undefined, b: { c: undefined } }), '{"b":{}}');
  assert.equal(canonicalJson([-0, 1e21, 0.1]), "[0,1e+21,0.1]");
});

Deno.test("canonicalRead() escapes a lone surrogate, so its UTF-8 bytes differ from another's", () => {
  const utf8 = new TextEncoder();
  assert.equal(canonicalJson("\ud800"), '"\\ud800"');
  assert.notDeepEqual(utf8.encode(canonicalJson("\ud800")), utf8.encode(canonicalJson("\ud801")));
});

Deno.test("canonicalRead() refuses what JSON cannot carry, naming where", () => {
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

Deno.test("canonicalRead() accepts a shared value that is not a cycle, and an object without a prototype", () => {
  const shared = { x: 1 };
  assert.equal(canonicalJson({ a: shared, b: shared }), '{"a":{"x":1},"b":{"x":1}}');
  assert.equal(canonicalJson(Object.assign(Object.create(null), { a: 1 })), '{"a":1}');
});

Deno.test("canonicalRead() throws a RangeError at its bounds, not a stack overflow", () => {
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.throws(() => canonicalJson(deep), { name: "RangeError", message: /nests deeper than 64 levels/ });
  assert.throws(() => canonicalJson("x".repeat(100), { ...CANONICAL_LIMITS, maxChars: 50 }), {
    name: "RangeError",
    message: "Cannot encode the value as its JSON exceeds 50 characters",
  });
  let exactly: unknown = 1;
  for (let i = 0; i < 64; i++) exactly = [exactly];
  assert.doesNotThrow(() => canonicalJson(exactly));
  assert.throws(() => canonicalJson([exactly]), RangeError);
  const members = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`m${i}`, i]));
  assert.doesNotThrow(() => canonicalJson({ a: members(50_000) }));
  assert.throws(() => canonicalJson({ a: members(50_001) }), {
    name: "RangeError",
    message: "Cannot encode the value as an object holds more than 50000 members: current count is 50001",
  });
});

Deno.test("canonicalRead() writes a string longer than a piece as JSON.stringify does, surrogate pairs across a cut too", () => {
  const piece = 64 * 1024;
  const strings = [
    "x".repeat(piece * 3 + 5),
    // A pair whose halves would fall on either side of the first cut.
    `${"x".repeat(piece - 1)}\u{1F600}${"y".repeat(piece)}`,
    // Lone surrogates at a cut and at the end, quotes, backslashes and control characters throughout.
    `${"a".repeat(piece - 1)}\ud800${'b"\\\n\u0001'.repeat(piece / 2)}\udc00`,
  ];
  for (const text of strings) {
    assert.equal(canonicalJson(text), JSON.stringify(text));
    assert.equal(canonicalJson({ k: [text] }), `{"k":[${JSON.stringify(text)}]}`);
    // As a key too, and before the member that follows it.
    assert.equal(canonicalJson({ "~": 1, [text]: text }), `{${JSON.stringify(text)}:${JSON.stringify(text)},"~":1}`);
    assert.deepEqual(canonicalRead({ [text]: 1 }).copy, { [text]: 1 });
  }
  // What escaping adds counts against maxChars: 70,000 control characters escape to 420,002 characters.
  const control = "\u0001".repeat(70_000);
  assert.throws(() => canonicalJson(control, { ...CANONICAL_LIMITS, maxChars: 420_001 }), RangeError);
  assert.equal(canonicalJson(control, { ...CANONICAL_LIMITS, maxChars: 420_002 }).length, 420_002);
  // A string longer than the bound is refused before any of it is escaped.
  assert.throws(() => canonicalJson("x".repeat(piece * 2), { ...CANONICAL_LIMITS, maxChars: piece }), RangeError);
});

Deno.test("canonicalRead() copies what its text says, read once; the paced read gives the same and pauses", async () => {
  const value = { b: [1, -0, "x"], a: { __proto__: null, c: undefined, d: [{}] }, ["__proto__"]: 2 };
  const { pieces, copy } = canonicalRead(value);
  assert.deepEqual(copy, JSON.parse(pieces.join("")));
  assert.equal(Object.hasOwn(copy as object, "__proto__"), true);
  assert.equal(Object.is((copy as { b: number[] }).b[1], 0), true);
  const long = { items: Array.from({ length: 5_000 }, (_, i) => ({ i, text: "x".repeat(i % 7) })) };
  let pauses = 0;
  const paced = await canonicalReadPaced(long, () => {
    pauses++;
    return Promise.resolve();
  });
  assert.deepEqual(paced, canonicalRead(long));
  assert.ok(pauses >= 10, `${pauses} pauses`);
});

Deno.test("canonicalReadPaced() pauses by the text it writes, not only by the values it reads, and cuts it into pieces of a bounded length, a long key's too", async () => {
  // 393,216 characters once escaped, each.
  const escaped = "\u0001".repeat(64 * 1024);
  // A key may hold up to 1 Mi characters: 15 of them, 5.9M once escaped.
  for (const value of [Array(42).fill(escaped), { [escaped.repeat(15)]: 1 }]) {
    let pauses = 0;
    const paced = await canonicalReadPaced(value, () => {
      pauses++;
      return Promise.resolve();
    });
    assert.deepEqual(paced, canonicalRead(value));
    assert.equal(paced.pieces.join(""), JSON.stringify(value));
    assert.ok(pauses >= 15, `${pauses} pauses`);
    // At most 64 KiB of text and the one text that passes it: a string of 64K characters, escaped.
    const longest = Math.max(...paced.pieces.map((piece) => piece.length));
    assert.ok(longest <= escaped.length * 7 + 2, `a piece of ${longest} characters`);
  }
});

Deno.test("canonicalRead()'s copy is what JSON.parse makes of its text (property)", () => {
  fc.assert(
    fc.property(json, (value) => {
      const { pieces, copy } = canonicalRead(value);
      return isDeepStrictEqual(copy, JSON.parse(pieces.join("")));
    }),
    { numRuns: 500 },
  );
});

Deno.test("canonicalRead() does not depend on key order (property)", () => {
  fc.assert(fc.property(json, (value) => canonicalJson(value) === canonicalJson(reversed(value))), {
    numRuns: 500,
  });
});

Deno.test("canonicalRead() is JSON that parses back to the value, so distinct values encode distinctly (property)", () => {
  fc.assert(
    fc.property(json, (value) => isDeepStrictEqual(JSON.parse(canonicalJson(value)), asJson(value))),
    { numRuns: 500 },
  );
});

Deno.test("canonicalRead() gives two values the same text only when they are the same JSON (property)", () => {
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

Deno.test("canonicalRead() writes strings and numbers as JSON.stringify does (property)", () => {
  fc.assert(fc.property(anyString, (text) => canonicalJson(text) === JSON.stringify(text)), { numRuns: 2_000 });
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => canonicalJson(n) === JSON.stringify(n)),
    { numRuns: 2_000 },
  );
});

Deno.test("canonicalRead() writes the given top-level members in place of the object's own, unread, or beside them", () => {
  const record = {
    b: 1,
    get seal(): never {
      throw new Error("read");
    },
  };
  const replaced = canonicalRead(record, CANONICAL_LIMITS, { seal: { v: 1 } });
  assert.equal(replaced.pieces.join(""), '{"b":1,"seal":{"v":1}}');
  const beside = canonicalRead({ b: 1 }, CANONICAL_LIMITS, { a: [2] });
  assert.equal(beside.pieces.join(""), '{"a":[2],"b":1}');
  assert.deepEqual(beside.copy, { a: [2], b: 1 });
  // Only the top level: a nested object of the same name keeps its own.
  assert.equal(canonicalRead({ x: { a: 1 } }, CANONICAL_LIMITS, { a: 2 }).pieces.join(""), '{"a":2,"x":{"a":1}}');
});
