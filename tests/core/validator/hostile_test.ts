// Schemas written to stall a validator: each is refused or ends quickly.

import assert from "node:assert/strict";
import { compileValidator } from "./_compile_validator.ts";
import { linearPatterns } from "../../../src/core/schema/validator/linear_patterns.ts";
import type { PatternEngine } from "../../../src/core/schema/validator/patterns.ts";
import { FORMATS } from "../../../src/core/schema/validator/_formats.ts";
import { compileRe2 } from "../../../src/core/schema/validator/_re2.ts";
import { SchemaRefusal } from "../../../src/core/schema/validator/refusal.ts";
import { SchemaBudgetError } from "../../../src/core/schema/validator/budget.ts";

function nestedPairs(levels: number): Record<string, unknown> {
  const defs: Record<string, unknown> = { l0: { type: "string" } };
  for (let n = 1; n <= levels; n++) {
    defs[`l${n}`] = { allOf: [{ $ref: `#/$defs/l${n - 1}` }, { $ref: `#/$defs/l${n - 1}` }] };
  }
  return { $defs: defs, $ref: `#/$defs/l${levels}` };
}

/** What `fn` throws, which must be a `kind`. */
function thrown<E extends Error>(kind: new (...args: never[]) => E, fn: () => unknown): E {
  try {
    fn();
  } catch (error) {
    if (error instanceof kind) return error;
    throw error;
  }
  assert.fail(`expected a ${kind.name}`);
}

const refusal = (fn: () => unknown): SchemaRefusal => thrown(SchemaRefusal, fn);
const budgetSpent = (fn: () => unknown): SchemaBudgetError => thrown(SchemaBudgetError, fn);

Deno.test("linearPatterns runs ^(a+)+$ on 40 a's and a ! without backtracking", () => {
  const validator = compileValidator({ type: "string", pattern: "^(a+)+$" }, { patterns: linearPatterns });
  assert.equal(validator.isValid("a".repeat(40) + "!"), false);
  assert.equal(validator.isValid("a".repeat(100_000) + "!"), false);
  assert.equal(validator.isValid("aaaa"), true);
});

Deno.test("linearPatterns runs a catastrophic patternProperties regex on a key", () => {
  const validator = compileValidator(
    { type: "object", patternProperties: { "^(a+)+$": { type: "number" } }, additionalProperties: false },
    { patterns: linearPatterns },
  );
  assert.equal(validator.isValid({ ["a".repeat(40) + "!"]: 1 }), false);
  assert.equal(validator.isValid({ ["a".repeat(40)]: 1 }), true);
});

Deno.test("linearPatterns refuses a backreference or a lookaround as unsupported, naming the pattern", () => {
  for (const pattern of ["^(a)\\1$", "^(?=a)a$", "(?<!x)y", "\\k<n>(?<n>a)"]) {
    const error = refusal(() => compileValidator({ pattern }, { patterns: linearPatterns }));
    assert.equal(error.kind, "unsupported");
    assert.equal(error.reason, "pattern");
    assert.equal(error.pointer, "/pattern");
    assert.ok(error.message.includes(JSON.stringify(pattern)), error.message);
  }
});

Deno.test("linearPatterns and its re2js translation read ECMA-262 classes as RegExp does", () => {
  const cases: [string, string[]][] = [
    ["^\\s+$", [" ", "\u00a0", "\u2028", "\t", "a"]],
    ["^a.c$", ["abc", "a\nc", "a\rc", "a\u2028c"]],
    ["^\\p{L}+$", ["héllo", "abc1", "日本"]],
    ["^\\u00e9\\u{1F600}$", ["é😀", "e😀"]],
    ["^[^]$", ["x", "\n"]],
    ["^(?<year>\\d{4})-\\d\\d$", ["2024-01", "24-01"]],
    ["[]", ["", "a"]],
  ];
  for (const [source, inputs] of cases) {
    const native = new RegExp(source, "u");
    for (const engine of [linearPatterns.compile(source), compileRe2(source)]) {
      for (const input of inputs) {
        assert.equal(engine.test(input), native.test(input), `${source} on ${JSON.stringify(input)}`);
      }
    }
  }
});

for (const levels of [20, 30]) {
  Deno.test(`nested allOf/$ref pairs ${levels} levels deep are refused at compile as over budget`, () => {
    const started = performance.now();
    const error = refusal(() => compileValidator(nestedPairs(levels)));
    assert.equal(error.kind, "invalid");
    assert.equal(error.reason, "budget");
    // Generous: the refusal counts at most the node budget, never 2^levels.
    assert.ok(performance.now() - started < 5_000);
  });
}

Deno.test("a schema whose steps multiply under a large node budget ends with SchemaBudgetError", () => {
  // No time budget: the steps alone stop it, on any machine.
  const budget = { compiledNodes: Number.MAX_SAFE_INTEGER, millisecondsPerValue: Infinity };
  const validator = compileValidator(nestedPairs(30), { budget });
  assert.throws(() => validator.isValid("x"), (error: unknown) => {
    assert.ok(error instanceof SchemaBudgetError);
    assert.equal(error.spent, "steps");
    assert.match(error.message, /^Cannot validate against the schema as one value took more than 1000000 steps/);
    return true;
  });
  // The validator stays usable: the step count restarts with each value.
  const small = compileValidator(nestedPairs(3));
  assert.equal(small.isValid("x"), true);
  assert.equal(small.isValid(1), false);
});

Deno.test("checking a value and diagnosing it spend one step budget, not one each", () => {
  // Every item passes but the last: the check reads them all before it refuses, and the diagnostics read them again.
  const schema = { items: { anyOf: [{ type: "string" }, { type: "number" }] } };
  const value = [...new Array(1_000).fill("a"), true];
  const fits = (stepsPerValue: number, work: (validator: ReturnType<typeof compileValidator>) => unknown) => {
    const validator = compileValidator(schema, { budget: { stepsPerValue } });
    try {
      work(validator);
      return true;
    } catch (error) {
      if (error instanceof SchemaBudgetError) return false;
      throw error;
    }
  };
  const smallest = (work: (validator: ReturnType<typeof compileValidator>) => unknown) => {
    let low = 1;
    let high = 1_000_000;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      if (fits(middle, work)) high = middle;
      else low = middle + 1;
    }
    return high;
  };
  const toCheck = smallest((validator) => assert.equal(validator.isValid(value), false));
  const toDiagnose = smallest((validator) => assert.equal(validator.diagnose(value).length, 1));
  // The diagnostics walk the items again on top of the check's steps: about twice the check's budget.
  assert.ok(toDiagnose > toCheck * 1.5, `check ${toCheck} steps, check and diagnostics ${toDiagnose}`);
  // With the check's budget, the value is refused but cannot be diagnosed: the walk counts on from the check.
  const validator = compileValidator(schema, { budget: { stepsPerValue: toCheck } });
  assert.equal(validator.isValid(value), false);
  assert.throws(() => validator.diagnoseRefused(value), SchemaBudgetError);
  // The next value starts a fresh count.
  assert.equal(validator.isValid(["a"]), true);
  assert.deepEqual(validator.diagnose([true]), [
    { path: "/0", keyword: "anyOf", message: 'The value matches none of the schemas in "anyOf".' },
  ]);
});

Deno.test("a recursive schema whose references outrun the call stack ends with SchemaBudgetError, not a RangeError", () => {
  // 490 schemas of allOf/$ref, within the reference-depth bound, applied again at each level of the value.
  const defs: Record<string, unknown> = {};
  for (let i = 0; i < 245; i++) defs[`a${i}`] = { allOf: [{ $ref: `#/$defs/a${i + 1}` }] };
  defs.a245 = { type: "object", properties: { x: { $ref: "#/$defs/a0" } } };
  const validator = compileValidator({ $defs: defs, $ref: "#/$defs/a0" });
  let value: Record<string, unknown> = {};
  for (let level = 0; level < 200; level++) value = { x: value };
  for (const run of [() => validator.isValid(value), () => validator.diagnose(value)]) {
    assert.throws(run, (error: unknown) => {
      assert.ok(error instanceof SchemaBudgetError);
      assert.match(
        error.message,
        /took its evaluation deeper than the call stack allows: the schema's cost multiplies$/,
      );
      return true;
    });
  }
  // The validator is still of use.
  assert.equal(validator.isValid({ x: { x: {} } }), true);
  assert.equal(validator.isValid({ x: 1 }), false);
});

Deno.test("2,000 dynamic references to 2,000 anchors of one name cost their sum, not their product", () => {
  const defs: Record<string, unknown> = {};
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 2_000; i++) {
    defs[`d${i}`] = { $id: `r${i}`, $dynamicAnchor: "a", type: "object", properties: { x: { $dynamicRef: "#a" } } };
    properties[`p${i}`] = { $ref: `r${i}` };
  }
  // A bound against a stall, not a speed claim: linking every reference to every anchor took 2.4 s here.
  const started = performance.now();
  const validator = compileValidator({ type: "object", properties, $defs: defs }, { budget: { schemaNodes: 10_000 } });
  const ms = performance.now() - started;
  assert.ok(ms < 1_000, `compiling took ${ms.toFixed(0)} ms`);
  // The outermost resource with the anchor wins: the root has none, so each property's own resource does.
  assert.equal(validator.isValid({ p0: { x: { x: {} } }, p1999: {} }), true);
  assert.equal(validator.isValid({ p0: { x: 1 } }), false);
});

Deno.test("a schema that applies itself again to the same value is refused as invalid, naming where", () => {
  const loops: [unknown, string][] = [
    [{ $ref: "#" }, "the root"],
    [
      { $defs: { a: { allOf: [{ $ref: "#/$defs/b" }] }, b: { anyOf: [{ $ref: "#/$defs/a" }] } }, $ref: "#/$defs/a" },
      "/$defs/",
    ],
    [{ $dynamicAnchor: "node", not: { $dynamicRef: "#node" } }, "the root"],
    [{ if: { $ref: "#" } }, "the root"],
  ];
  for (const [schema, where] of loops) {
    const error = refusal(() => compileValidator(schema));
    assert.equal(error.kind, "invalid", error.message);
    assert.ok(error.message.includes(`the schema at ${where}`), error.message);
    assert.match(error.message, /applies itself again to the same value.*would never end$/);
  }
  // Recursion through a part of the value is not a loop: each level reads deeper.
  const tree = compileValidator({ type: "object", properties: { child: { $ref: "#" } } });
  assert.equal(tree.isValid({ child: { child: {} } }), true);
  assert.equal(tree.isValid({ child: { child: 1 } }), false);
});

Deno.test("a schema 200,000 levels deep is refused as invalid, without a RangeError", () => {
  let schema: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < 200_000; i++) schema = { properties: { a: schema } };
  const error = refusal(() => compileValidator(schema));
  assert.equal(error.kind, "invalid");
  assert.equal(error.reason, "depth");
  let nots: Record<string, unknown> = {};
  for (let i = 0; i < 200_000; i++) nots = { not: nots };
  assert.equal(refusal(() => compileValidator(nots)).reason, "depth");
});

Deno.test("a const 200,000 levels deep is refused as invalid, without a RangeError", () => {
  let value: unknown = 1;
  for (let i = 0; i < 200_000; i++) value = [value];
  const error = refusal(() => compileValidator({ const: value }));
  assert.equal(error.kind, "invalid");
});

Deno.test("a recursive $ref compiles once and validates a nested value", () => {
  const validator = compileValidator({
    $defs: { tree: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/tree" } } } } },
    $ref: "#/$defs/tree",
  });
  assert.equal(validator.isValid({ children: [{ children: [{ children: [] }] }] }), true);
  assert.equal(validator.isValid({ children: [{ children: [1] }] }), false);
});

function chain(length: number): Record<string, unknown> {
  const defs: Record<string, unknown> = { d0: { type: "integer" } };
  for (let i = 1; i < length; i++) defs[`d${i}`] = { $ref: `#/$defs/d${i - 1}` };
  return { $defs: defs, $ref: `#/$defs/d${length - 1}` };
}

Deno.test("a chain of 200 $ref validates; one of 20,000 is refused as too deep, without a RangeError", () => {
  const validator = compileValidator(chain(200));
  assert.equal(validator.isValid(1), true);
  assert.equal(validator.isValid("1"), false);
  const error = refusal(() => compileValidator(chain(20_000), { budget: { schemaNodes: 30_000 } }));
  assert.equal(error.kind, "invalid");
  assert.equal(error.reason, "depth");
});

/**
 * Runs `work` with `performance.now` answering from a clock that moves `tick` ms at each reading, from 0.
 *
 * @returns What `work` returned, and how many times the clock was read.
 */
function withClock<T>(tick: number, work: () => T): { readonly result: T; readonly readings: number } {
  let readings = 0;
  Object.defineProperty(performance, "now", { value: () => tick * readings++, configurable: true });
  try {
    return { result: work(), readings };
  } finally {
    // The own property goes: performance.now is the built-in one again.
    delete (performance as { now?: unknown }).now;
  }
}

Deno.test("validation reads the clock every 16,384 steps, never for a small value, and stops past its time budget", () => {
  // A step an item and a few more: 100,000 items take over 100,000 steps, under 150,000.
  const schema = { items: { anyOf: [{ type: "string" }, { type: "number" }] } };
  const items = new Array(100_000).fill("a");
  const budget = { stepsPerValue: Number.MAX_SAFE_INTEGER, millisecondsPerValue: 25 };
  const validator = compileValidator(schema, { budget });
  assert.deepEqual(withClock(10, () => validator.isValid(new Array(5_000).fill(1))), { result: true, readings: 0 });
  // Readings at 0, 10, 20 and 30 ms: the fourth is past 25 ms after the first.
  const timed = withClock(10, () => budgetSpent(() => validator.isValid(items)));
  assert.equal(timed.readings, 4);
  assert.equal(timed.result.spent, "time");
  assert.match(timed.result.message, /^Cannot validate against the schema as one value took more than 25 ms: /);
  // A clock that does not move (as in Cloudflare Workers) leaves the steps alone to bound it: a reading each 16,384.
  const still = withClock(0, () => validator.isValid(items));
  assert.equal(still.result, true);
  assert.ok(still.readings >= 6 && still.readings <= 9, `${still.readings} readings`);
  // The next value starts its own time, and diagnostics spend the check's: the refused item is the last.
  const refused = [...items, true];
  assert.equal(withClock(1, () => validator.isValid(refused)).result, false);
  assert.equal(withClock(2, () => budgetSpent(() => validator.diagnose(refused))).result.spent, "time");
  // With no time budget a fast clock stops nothing; the step budget still does.
  const stepsOnly = compileValidator(schema, { budget: { stepsPerValue: 150_000, millisecondsPerValue: Infinity } });
  assert.equal(withClock(1_000, () => budgetSpent(() => stepsOnly.isValid(items))).result.spent, "steps");
});

Deno.test("each pattern test is charged to the step budget by its engine's cost and the text's length", () => {
  const costly: PatternEngine = {
    compile: (source) => Object.assign(new RegExp(source, "u"), { cost: { perCharacter: 10, fixed: 0 } }),
  };
  const schema = { items: { pattern: "^a+$" } };
  const charged = compileValidator(schema, { patterns: costly });
  assert.equal(charged.isValid(["a".repeat(90_000)]), true, "900,000 steps");
  assert.throws(() => charged.isValid(["a".repeat(60_000), "a".repeat(60_000)]), SchemaBudgetError);
  // linearPatterns says what its tests cost: re2js a step a character, the built-in RegExp by its backtracking bound.
  assert.deepEqual(linearPatterns.compile("^(a+)+$").cost, { perCharacter: 1, fixed: 10 });
  assert.ok((linearPatterns.compile("^[a-z]{1,20}\\d*!").cost?.perCharacter ?? 0) > 1);
  // A cost that cannot be charged (not finite, negative) is read as the default, a step for every 32 characters.
  const broken: PatternEngine = {
    compile: (source) => Object.assign(new RegExp(source, "u"), { cost: { perCharacter: Number.NaN, fixed: -1 } }),
  };
  const defaulted = compileValidator(schema, { patterns: broken, budget: { stepsPerValue: 100 } });
  assert.equal(defaulted.isValid(["a".repeat(3_000)]), true);
  assert.throws(() => defaulted.isValid(["a".repeat(3_300)]), SchemaBudgetError);
});

Deno.test("a format scan, a code point count and draft-07 content are charged by the length of the string", () => {
  const budget = { stepsPerValue: 1_000 };
  const text = "a".repeat(2_000);
  const format = compileValidator({ format: "regex" }, { formats: "assert", scanners: FORMATS, budget });
  assert.throws(() => format.isValid(text), SchemaBudgetError);
  assert.equal(format.isValid("a".repeat(900)), true);
  // A length past the UTF-16 fast path counts code points: a step for every 8 units.
  const length = compileValidator({ maxLength: 100 }, { budget: { stepsPerValue: 100 } });
  assert.equal(length.isValid("é".repeat(750)), false);
  assert.throws(() => length.isValid("é".repeat(850)), SchemaBudgetError);
  const content = compileValidator({ contentMediaType: "application/json" }, { draft: "7", formats: "assert", budget });
  assert.throws(() => content.isValid(`"${"a".repeat(600)}"`), SchemaBudgetError);
  assert.equal(content.isValid(`"${"a".repeat(400)}"`), true);
});

Deno.test("a schema that holds more schemas than the budget's schemaNodes is refused at the first one past it", () => {
  // Each a schema of its own, as parsed JSON has them.
  const anyOf = (count: number, item: unknown) => ({
    anyOf: Array.from({ length: count }, () => structuredClone(item)),
  });
  // The root and 999 in its anyOf: 1,000 schemas, the default.
  assert.equal(compileValidator(anyOf(999, {})).isValid(1), true);
  const error = refusal(() => compileValidator(anyOf(80_000, {})));
  assert.equal(error.kind, "invalid");
  assert.equal(error.reason, "budget");
  assert.equal(error.pointer, "/anyOf/999");
  assert.equal(
    error.message,
    "Cannot compile the schema as it holds more than 1000 schemas (the budget's schemaNodes)",
  );
  // Booleans are schemas; so are the remotes' and the unreferenced $defs'.
  assert.equal(refusal(() => compileValidator(anyOf(1_000, true))).reason, "budget");
  assert.equal(refusal(() => compileValidator({ $defs: { unused: anyOf(1_000, {}) } })).reason, "budget");
  const remotes = { "https://example.com/big": anyOf(999, {}) };
  assert.equal(refusal(() => compileValidator({ $ref: "https://example.com/big" }, { remotes })).reason, "budget");
  // The bound is the caller's to raise.
  const raised = compileValidator(anyOf(5_000, { type: "integer" }), { budget: { schemaNodes: 5_001 } });
  assert.equal(raised.isValid(1), true);
  assert.equal(raised.isValid("1"), false);
});
