import assert from "node:assert/strict";
import { fc } from "../../dev_deps.ts";
import { DEFAULT_LIMITS, type JsonLimits, SCHEMA_LIMITS } from "../../../mod.ts";
import { checkJsonValue } from "../../../dyn.ts";
import { copyJsonValue } from "../../../src/core/common/limits.ts";

const encoder = new TextEncoder();
const utf8Length = (text: string) => encoder.encode(text).length;
const unbounded = (limits: Partial<JsonLimits>): JsonLimits => ({
  maxBytes: Number.POSITIVE_INFINITY,
  maxDepth: Number.POSITIVE_INFINITY,
  ...limits,
});

/** Nesting of objects and arrays: a scalar is 0, a top-level object 1. */
function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  const children = Object.values(value);
  return 1 + children.reduce((deepest: number, child) => Math.max(deepest, depthOf(child)), 0);
}

Deno.test("DEFAULT_LIMITS are 256 KiB and depth 32, frozen", () => {
  assert.deepEqual(DEFAULT_LIMITS, { maxBytes: 262_144, maxDepth: 32 });
  assert.ok(Object.isFrozen(DEFAULT_LIMITS));
});

Deno.test("checkJsonValue() counts exactly the UTF-8 bytes of JSON.stringify, for any JSON value", () => {
  for (const stringUnit of ["grapheme", "binary-ascii", "grapheme-composite"] as const) {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit }), (value) => {
        const bytes = utf8Length(JSON.stringify(value));
        assert.equal(checkJsonValue(value, unbounded({ maxBytes: bytes })), undefined);
        assert.equal(checkJsonValue(value, unbounded({ maxBytes: bytes - 1 }))?.keyword, "maxBytes");
      }),
      { numRuns: 300 },
    );
  }
});

Deno.test("checkJsonValue() refuses exactly the values nested deeper than maxDepth", () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 7 }), (value, maxDepth) => {
      const problem = checkJsonValue(value, unbounded({ maxDepth }));
      assert.equal(problem?.keyword === "maxDepth", depthOf(value) > maxDepth);
      if (depthOf(value) <= maxDepth) assert.equal(problem, undefined);
    }),
    { numRuns: 500 },
  );
});

// Any UTF-16 code unit, surrogate halves often, so that lone ones and pairs both occur.
const codeUnit = fc.oneof(
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
);

Deno.test("checkJsonValue() and copyJsonValue() refuse exactly the strings and keys that are not well-formed UTF-16", () => {
  fc.assert(
    fc.property(fc.string({ unit: codeUnit, maxLength: 8 }), (text) => {
      const wellFormed = text.isWellFormed();
      assert.equal(checkJsonValue({ text })?.keyword === "wellFormed", !wellFormed);
      assert.equal(checkJsonValue({ [text]: 1 })?.keyword === "wellFormed", !wellFormed);
      // A copy is refused for the same strings and keys: it is what a handler's output becomes.
      assert.equal(copyJsonValue({ text }).ok, wellFormed);
      assert.equal(copyJsonValue({ [text]: 1 }).ok, wellFormed);
    }),
    { numRuns: 1000 },
  );
});

Deno.test("checkJsonValue() never throws and never changes its input, for any value", () => {
  fc.assert(
    fc.property(
      fc.anything({
        withBigInt: true,
        withBoxedValues: true,
        withDate: true,
        withMap: true,
        withSet: true,
        withNullPrototype: true,
        withObjectString: true,
        withSparseArray: true,
        withTypedArray: true,
        withUnicodeString: true,
      }),
      (value) => {
        const before = fc.stringify(value);
        const problem = checkJsonValue(value);
        assert.equal(fc.stringify(value), before);
        // Whatever passes, JSON can carry: the byte count still matches.
        if (problem === undefined) {
          const bytes = utf8Length(JSON.stringify(value));
          assert.equal(checkJsonValue(value, unbounded({ maxBytes: bytes - 1 }))?.keyword, "maxBytes");
        }
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("checkJsonValue() accepts exactly 256 KiB and refuses one byte more", () => {
  // {"a":"..."} is 8 bytes around the string's content.
  const fits = { a: "x".repeat(262_144 - 8) };
  assert.equal(checkJsonValue(fits), undefined);
  const over = { a: "x".repeat(262_144 - 7) };
  assert.equal(checkJsonValue(over)?.keyword, "maxBytes");
});

Deno.test("checkJsonValue() stops early on a 100,000-deep value, at the first level too deep", () => {
  let array: unknown = [];
  let object: unknown = {};
  for (let i = 0; i < 100_000; i++) {
    array = [array];
    object = { a: object };
  }
  const arrayProblem = checkJsonValue(array);
  assert.equal(arrayProblem?.keyword, "maxDepth");
  assert.equal(arrayProblem?.path, "/0".repeat(32));
  const objectProblem = checkJsonValue(object);
  assert.equal(objectProblem?.keyword, "maxDepth");
  assert.equal(objectProblem?.path, "/a".repeat(32));
});

Deno.test("checkJsonValue() refuses a cycle but accepts a value shared twice", () => {
  const shared = { n: 1 };
  assert.equal(checkJsonValue({ left: shared, right: shared, list: [shared, shared] }), undefined);
  const cyclic: Record<string, unknown> = { list: [] };
  (cyclic.list as unknown[]).push({ back: cyclic });
  const problem = checkJsonValue(cyclic);
  assert.equal(problem?.keyword, "json");
  assert.equal(problem?.path, "/list/0/back");
  assert.match(problem!.message, /cycle/);
});

Deno.test("checkJsonValue() refuses what JSON cannot carry, at its path", () => {
  const cases: [unknown, string][] = [
    [{ a: NaN }, "/a"],
    [{ a: Infinity }, "/a"],
    [{ a: [1, -Infinity] }, "/a/1"],
    [{ a: 1n }, "/a"],
    [{ a: undefined }, "/a"],
    [{ a: () => 1 }, "/a"],
    [{ a: Symbol("s") }, "/a"],
    [{ a: new Date(0) }, "/a"],
    [{ a: new Map() }, "/a"],
    [{ a: /x/ }, "/a"],
    [{ a: new Uint8Array(2) }, "/a"],
    [{ a: new (class Point {})() }, "/a"],
    [{ a: [1, , 3] }, "/a/1"],
    [undefined, ""],
  ];
  for (const [value, path] of cases) {
    const problem = checkJsonValue(value);
    assert.equal(problem?.keyword, "json", `${path} of ${String(value)}`);
    assert.equal(problem?.path, path);
    assert.match(problem!.message, /^Cannot accept/);
  }
});

Deno.test("copyJsonValue() leaves out undefined members and an array's undefined items at its end, which checkJsonValue() refuses", () => {
  const value = { a: 1, note: undefined, pair: ["x", undefined, undefined], holes: [1, , ,], nested: { b: undefined } };
  const copied = copyJsonValue(value);
  assert.deepEqual(copied, { ok: true, value: { a: 1, pair: ["x"], holes: [1], nested: {} } });
  assert.equal(copied.ok && Object.hasOwn(copied.value as object, "note"), false);
  assert.equal(value.pair.length, 3, "the value given is not changed");
  assert.equal(checkJsonValue(value)?.path, "/note");
  // One before an item that is there has no place in JSON.
  for (const [refused, path] of [[{ pair: [undefined, "x"] }, "/pair/0"], [[1, , 2], "/1"]] as const) {
    const problem = copyJsonValue(refused);
    assert.equal(problem.ok === false && `${problem.problem.keyword} ${problem.problem.path}`, `json ${path}`);
  }
  // What is left out costs no bytes: the copy's JSON is what the bound holds.
  const wide = {
    kept: "x".repeat(90),
    ...Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`u${i}`, undefined])),
  };
  assert.equal(JSON.stringify(wide).length, 101);
  assert.equal(copyJsonValue(wide, { maxBytes: 101, maxDepth: 4 }).ok, true);
  assert.equal(copyJsonValue(wide, { maxBytes: 100, maxDepth: 4 }).ok, false);
  // A long sparse array is charged before it is read: refused at once, not read a billion items.
  const sparse = copyJsonValue(new Array(1e9));
  assert.equal(sparse.ok === false && sparse.problem.keyword, "maxBytes");
});

Deno.test("checkJsonValue() accepts null-prototype objects and escapes keys in paths", () => {
  const bare = Object.assign(Object.create(null), { a: 1 });
  assert.equal(checkJsonValue(bare), undefined);
  assert.equal(checkJsonValue({ "a/b~c": NaN })?.path, "/a~1b~0c");
});

Deno.test("checkJsonValue() takes a deep-frozen value and leaves it as it was", () => {
  const value = Object.freeze({ list: Object.freeze([1, "two", Object.freeze({ three: 3 })]) });
  const before = structuredClone(value);
  assert.equal(checkJsonValue(value), undefined);
  assert.deepEqual(value, before);
});

Deno.test("checkJsonValue() reports a getter or proxy that throws while read as a json problem at its path", () => {
  const getter = {
    list: [{
      get boom(): never {
        throw new Error("getter exploded");
      },
    }],
  };
  const problem = checkJsonValue(getter);
  assert.equal(problem?.keyword, "json");
  assert.equal(problem?.path, "/list/0/boom");
  assert.match(problem!.message, /getter exploded/);
  const trap = new Proxy({}, {
    ownKeys() {
      throw new Error("trap exploded");
    },
  });
  assert.match(checkJsonValue({ a: trap })!.message, /trap exploded/);
});

Deno.test("copyJsonValue() copies exactly the values checkJsonValue accepts, equal and unshared", () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 2, max: 8 }), (value, maxDepth) => {
      const limits = { maxBytes: 2_000, maxDepth };
      const copied = copyJsonValue(value, limits);
      assert.equal(copied.ok, checkJsonValue(value, limits) === undefined);
      if (copied.ok) {
        assert.deepEqual(copied.value, value);
        if (typeof value === "object" && value !== null) assert.notEqual(copied.value, value);
      }
    }),
  );
});

Deno.test("copyJsonValue() keeps a __proto__ key as a key and reads each getter once", () => {
  const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
  const copied = copyJsonValue(parsed);
  assert.ok(copied.ok);
  assert.equal(Object.getPrototypeOf(copied.value), Object.prototype);
  assert.deepEqual(Object.keys(copied.value as object), ["__proto__", "a"]);
  let reads = 0;
  const shifting = Object.defineProperty({}, "n", { enumerable: true, get: () => ++reads });
  assert.deepEqual(copyJsonValue(shifting), { ok: true, value: { n: 1 } });
});

Deno.test("checkJsonValue() and copyJsonValue() count objects and arrays against maxContainers, when the limits set it", () => {
  const limits = unbounded({ maxContainers: 3 });
  assert.equal(checkJsonValue({ a: [1, 2], b: { c: "x" } }, limits), undefined);
  const problem = checkJsonValue({ a: [1, 2], b: { c: [] } }, limits);
  assert.deepEqual(problem, {
    keyword: "maxContainers",
    path: "/b/c",
    message: "Cannot accept the value as it holds more than 3 objects and arrays",
  });
  assert.deepEqual(copyJsonValue([[], [], []], limits), { ok: false, problem: { ...problem, path: "/2" } });
  assert.deepEqual(copyJsonValue([[], []], limits), { ok: true, value: [[], []] });
  // Scalars are not counted; without the bound, nothing is.
  assert.equal(checkJsonValue(new Array(10_000).fill(1), limits), undefined);
  assert.equal(checkJsonValue(new Array(10_000).fill([]), DEFAULT_LIMITS), undefined);
});

Deno.test("SCHEMA_LIMITS are DEFAULT_LIMITS with at most 5,000 objects and arrays, frozen", () => {
  assert.deepEqual(SCHEMA_LIMITS, { ...DEFAULT_LIMITS, maxContainers: 5_000 });
  assert.ok(Object.isFrozen(SCHEMA_LIMITS));
  // 256 KiB hold 80,000 of them: the walk stops at the first past the bound.
  const problem = checkJsonValue({ anyOf: new Array(80_000).fill({}) }, SCHEMA_LIMITS);
  assert.equal(problem?.keyword, "maxContainers");
  assert.equal(problem?.path, "/anyOf/4998");
});
