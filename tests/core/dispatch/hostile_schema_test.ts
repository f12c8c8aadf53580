// Hostile raw JSON Schemas given to defineJsonTool as untrusted (patterns on
// the linear-time engine): each is refused at definition or each call ends in
// a typed failure, and the event loop is never blocked for long.

import assert from "node:assert/strict";
import { defineJsonTool, InvalidSpecError, type JsonSchema, type TerminalEvent, ToolSet } from "../../../mod.ts";
import { compileSchema, linearPatterns, nativePatterns, type PatternEngine } from "../../../dyn.ts";
import { exponentialSchema, NESTED_QUANTIFIER_SCHEMA, NESTED_QUANTIFIER_TEXT } from "../../fixtures/hostile_schemas.ts";
import { gapBound, largestGap } from "../../fixtures/event_loop.ts";
import { backtrackingBound } from "../../../src/core/schema/validator/_backtracking.ts";

// A bound against hangs, not a speed claim: the work itself takes about 10 ms.
const MAX_GAP_MS: number = gapBound();

function untrustedTool(inputSchema: JsonSchema, outputSchema?: JsonSchema, output: unknown = {}) {
  return defineJsonTool({
    name: "hostile",
    description: "A tool whose schemas came from outside.",
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    patterns: linearPatterns,
    effects: [],
    run: () => output,
  });
}

async function callOnce(tools: ToolSet, args: unknown): Promise<TerminalEvent> {
  return await tools.call({ id: "call_1", name: "hostile", arguments: JSON.stringify(args) });
}

for (const levels of [20, 30]) {
  Deno.test(`defineJsonTool() refuses an untrusted ${levels}-level exponential allOf/$ref schema at once`, async () => {
    const { result, gapMs } = await largestGap(() => {
      try {
        untrustedTool(exponentialSchema(levels));
        return undefined;
      } catch (error) {
        return error;
      }
    });
    console.log(`${levels} levels: refused, largest event-loop gap ${gapMs.toFixed(1)} ms`);
    assert.ok(result instanceof InvalidSpecError);
    assert.match(
      result.message,
      /^Cannot compile the inputSchema as its references expand to more than 100000 schemas/,
    );
    assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
  });
}

// 256 KiB holds 80,000 empty schemas (defining them took 0.35 s, compiling them 0.2 s more, in one stretch each) or
// an enum of 60,000 objects (0.1 s): the count of objects and arrays and the count of subschemas bound that work.
const OBJECTS =
  /^Cannot define "hostile": Cannot use the inputSchema as it is not bounded JSON: Cannot accept the value as it holds more than 5000 objects and arrays/;
const SCHEMAS = /^Cannot compile the inputSchema as it holds more than 1000 schemas \(the budget's schemaNodes\)/;
const DENSE_SCHEMAS: [string, JsonSchema, RegExp][] = [
  [
    "80,000 empty schemas in an anyOf",
    { type: "object", properties: { x: { anyOf: Array.from({ length: 80_000 }, () => ({})) } } },
    OBJECTS,
  ],
  ["an enum of 60,000 objects", {
    type: "object",
    properties: { x: { enum: Array.from({ length: 60_000 }, () => ({})) } },
  }, OBJECTS],
  [
    "50,000 true schemas in an allOf",
    { type: "object", properties: { x: { allOf: new Array(50_000).fill(true) } } },
    SCHEMAS,
  ],
  [
    "1,200 properties",
    { type: "object", properties: Object.fromEntries(Array.from({ length: 1_200 }, (_, i) => [`f${i}`, {}])) },
    SCHEMAS,
  ],
];
for (const [what, schema, refusal] of DENSE_SCHEMAS) {
  Deno.test(`defineJsonTool() refuses an untrusted schema of ${what} at once`, async () => {
    const { result, gapMs } = await largestGap(() => {
      try {
        untrustedTool(schema);
        return undefined;
      } catch (error) {
        return error;
      }
    });
    console.log(`${what}: refused, largest event-loop gap ${gapMs.toFixed(1)} ms`);
    assert.ok(result instanceof InvalidSpecError, String(result));
    assert.match(result.message, refusal);
    assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
  });
}

Deno.test("an untrusted schema of 1,000 schemas is defined, and compiled on its first call, without blocking the event loop", async () => {
  const properties = Object.fromEntries(
    Array.from({ length: 998 }, (_, i) => [`field_${i}`, { type: "string", minLength: 1, maxLength: 40 }]),
  );
  const schema = { type: "object", properties: { record: { type: "object", properties } } };
  const defined = await largestGap(() => untrustedTool(schema));
  const tools = new ToolSet().register(defined.result);
  const called = await largestGap(() => callOnce(tools, { record: { field_0: "a", field_997: "b" } }));
  console.log(
    `1,000 schemas: defined with a largest gap of ${defined.gapMs.toFixed(1)} ms, first call ${
      called.gapMs.toFixed(1)
    } ms`,
  );
  assert.equal(called.result.type, "output");
  assert.ok(defined.gapMs < MAX_GAP_MS, `defining blocked the event loop for ${defined.gapMs} ms`);
  assert.ok(called.gapMs < MAX_GAP_MS, `the first call blocked the event loop for ${called.gapMs} ms`);
});

Deno.test("defineJsonTool() takes a budget: a schema of your own may hold more schemas", async () => {
  const schema = { type: "object", properties: { x: { anyOf: new Array(2_000).fill({ type: "integer" }) } } };
  assert.throws(() => untrustedTool(schema), /holds more than 1000 schemas \(the budget's schemaNodes\)/);
  const tool = defineJsonTool({
    name: "hostile",
    description: "A tool with a large schema of the host's own.",
    inputSchema: schema,
    budget: { schemaNodes: 10_000 },
    effects: [],
    run: () => ({}),
  });
  const tools = new ToolSet().register(tool);
  assert.equal((await callOnce(tools, { x: 1 })).type, "output");
  assert.equal((await callOnce(tools, { x: "1" })).type, "failed");
});

// The default budget stops a validation at 1,000,000 steps or 30 ms, whichever comes first: here, mostly the steps.
const OVER_BUDGET = /as one value took more than (1000000 steps|30 ms): the schema's cost multiplies/;

Deno.test("ToolSet.call() ends a call whose input schema exceeds the step budget as a contract failure naming the schema", async () => {
  const tools = new ToolSet().register(untrustedTool(exponentialSchema(14)));
  const args = { list: new Array(40).fill("secret-argument") };
  const { result: end, gapMs } = await largestGap(() => callOnce(tools, args));
  console.log(`14 levels, input: ${end.type}, largest event-loop gap ${gapMs.toFixed(1)} ms`);
  assert.equal(end.type, "failed");
  if (end.type !== "failed") return;
  assert.equal(end.failure.kind, "contract");
  assert.equal(end.failure.retryable, false);
  assert.match(end.failure.message, /inputSchema as one value took more than/);
  assert.match(end.failure.message, OVER_BUDGET);
  assert.match(end.failure.modelText, /cannot check its arguments.*did not run/);
  assert.ok(!JSON.stringify(end.failure).includes("secret-argument"), "the failure repeats the arguments");
  assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
});

Deno.test("ToolSet.call() ends a call whose output schema exceeds the step budget as a contract failure", async () => {
  const output = { list: new Array(40).fill("x") };
  const tools = new ToolSet().register(untrustedTool({ type: "object" }, exponentialSchema(14), output));
  const { result: end, gapMs } = await largestGap(() => callOnce(tools, {}));
  console.log(`14 levels, output: ${end.type}, largest event-loop gap ${gapMs.toFixed(1)} ms`);
  assert.equal(end.type === "failed" && end.failure.kind, "contract");
  if (end.type !== "failed") return;
  assert.equal(end.failure.retryable, false);
  assert.match(end.failure.message, /outputSchema as one value took more than/);
  assert.match(end.failure.message, OVER_BUDGET);
  assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
});

Deno.test("ToolSet.call() ends a call over its time budget as a contract failure, however many steps the budget allows", async () => {
  // Steps without end: only the clock stops this validation.
  const tools = new ToolSet().register(defineJsonTool({
    name: "hostile",
    description: "A tool whose schemas came from outside.",
    inputSchema: exponentialSchema(30),
    patterns: linearPatterns,
    budget: { compiledNodes: Number.MAX_SAFE_INTEGER, stepsPerValue: Number.MAX_SAFE_INTEGER, millisecondsPerValue: 5 },
    effects: [],
    run: () => ({}),
  }));
  const { result: end, gapMs } = await largestGap(() => callOnce(tools, { list: ["a"] }));
  console.log(`30 levels, 5 ms: ${end.type}, largest event-loop gap ${gapMs.toFixed(1)} ms`);
  assert.equal(end.type === "failed" && end.failure.kind, "contract");
  if (end.type !== "failed") return;
  assert.match(end.failure.message, /inputSchema as one value took more than 5 ms: the schema's cost multiplies/);
  assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
});

Deno.test("an untrusted ^(a+)+$ on 40 characters is answered at once, for input and for output", async () => {
  const tools = new ToolSet().register(
    untrustedTool(NESTED_QUANTIFIER_SCHEMA, NESTED_QUANTIFIER_SCHEMA, { text: NESTED_QUANTIFIER_TEXT }),
  );
  const { result, gapMs } = await largestGap(async () => [
    await callOnce(tools, { text: NESTED_QUANTIFIER_TEXT }),
    await callOnce(tools, { text: "aaaa" }),
  ]);
  console.log(`^(a+)+$: largest event-loop gap ${gapMs.toFixed(1)} ms`);
  const [input, output] = result;
  assert.equal(input.type === "failed" && input.failure.kind, "invalid_input");
  assert.equal(output.type === "failed" && output.failure.kind, "invalid_output");
  assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
});

Deno.test("an untrusted pattern that runs on the built-in RegExp, tried on every string of a full argument, keeps the event loop free", async () => {
  // Two variable atoms before a "!" the strings lack: each test tries every pair of counts, near the bound.
  const pattern = "^[a-z]{0,7}[a-z]{0,7}!";
  assert.ok(backtrackingBound(pattern) !== undefined, "the pattern runs on the built-in RegExp");
  // Every string fails the pattern and passes the other branch, so each one is tested.
  const tools = new ToolSet().register(untrustedTool({
    type: "object",
    properties: { list: { type: "array", items: { anyOf: [{ pattern }, { type: "string" }] } } },
  }));
  const list = new Array(14_000).fill("a".repeat(15));
  assert.ok(JSON.stringify({ list }).length > 250_000);
  const { result: end, gapMs } = await largestGap(() => callOnce(tools, { list }));
  console.log(
    `${list.length} strings on a bounded pattern: ${end.type}, largest event-loop gap ${gapMs.toFixed(1)} ms`,
  );
  assert.equal(end.type, "output");
  assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
});

Deno.test("an untrusted pattern with an unbounded atom that runs on the built-in RegExp keeps the event loop free on a 250,000-character string", async () => {
  // Each of the first atom's 20 counts leaves the digits to the unbounded atom, which gives them back one at a time.
  const pattern = "^[a-z0-9]{1,20}\\d*!";
  assert.ok(backtrackingBound(pattern) !== undefined, "the pattern runs on the built-in RegExp");
  const tools = new ToolSet().register(untrustedTool({ type: "object", properties: { code: { pattern } } }));
  const { result: end, gapMs } = await largestGap(() => callOnce(tools, { code: "1".repeat(250_000) }));
  console.log(`a 250,000-digit string on ${pattern}: ${end.type}, largest event-loop gap ${gapMs.toFixed(1)} ms`);
  assert.equal(end.type === "failed" && end.failure.kind, "invalid_input");
  assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
});

/** A tool over a schema of the host's own: no pattern engine given. */
function hostTool(pattern: string, patterns?: PatternEngine) {
  return defineJsonTool({
    name: "host",
    description: "A tool whose schema the host wrote.",
    inputSchema: { type: "object", properties: { text: { type: "string", pattern } } },
    ...(patterns === undefined ? {} : { patterns }),
    effects: [],
    run: () => ({}),
  });
}

async function kindsOf(tools: ToolSet, texts: readonly string[]): Promise<string[]> {
  const kinds = [];
  for (const text of texts) {
    const end = await tools.call({ id: "call_1", name: "host", arguments: JSON.stringify({ text }) });
    kinds.push(end.type === "failed" ? end.failure.kind : end.type);
  }
  return kinds;
}

// On the built-in RegExp, `\d+px` took 100 s against 200,000 digits, and `^(a+)+$` 1.5 s against 26 `a`s and a `!`.
for (
  const [pattern, hostile, valid] of [
    ["\\d+px", "1".repeat(200_000), "width: 12px"],
    ["^(a+)+$", NESTED_QUANTIFIER_TEXT, "aaaa"],
  ]
) {
  Deno.test(`a host's own pattern ${pattern}, which could backtrack for long, answers a model's hostile text at once`, async () => {
    const tools = new ToolSet().register(hostTool(pattern));
    // The first call waits for re2js to load.
    assert.deepEqual(await kindsOf(tools, [valid]), ["output"]);
    const { result, gapMs } = await largestGap(() => kindsOf(tools, [hostile, valid]));
    console.log(`a host's ${pattern}: largest event-loop gap ${gapMs.toFixed(1)} ms`);
    assert.deepEqual(result, ["invalid_input", "output"]);
    assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
  });
}

Deno.test("a host's draft-04 schema compiles as draft-07, so its patterns run behind the same engine and budget", async () => {
  const tools = new ToolSet().register(defineJsonTool({
    name: "host",
    description: "A tool whose draft-04 schema the host wrote.",
    inputSchema: {
      $schema: "http://json-schema.org/draft-04/schema#",
      type: "object",
      properties: { text: { type: "string", pattern: "\\d+px" } },
    },
    effects: [],
    run: () => ({}),
  }));
  assert.deepEqual(await kindsOf(tools, ["12px"]), ["output"]);
  const { result, gapMs } = await largestGap(() => kindsOf(tools, ["1".repeat(200_000)]));
  assert.deepEqual(result, ["invalid_input"]);
  assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
});

Deno.test("a host's own patterns keep their ECMA-262 meaning on whichever engine runs them", async () => {
  const cases: [string, string[], string[]][] = [
    // Bounded: the built-in RegExp.
    ["^[A-Z][A-Z0-9]{1,9}-\\d+$", ["AUTH-42"], ["auth-42", "AUTH-"]],
    // Could backtrack: re2js, with ECMA-262's \s (Unicode spaces) and . (no line terminator).
    ["^\\w+\\s\\w+$", ["a\u00a0b", "a b"], ["a\nb!", "ab"]],
    ["^a.*b.*z$", ["abcz"], ["ab\u2028z"]],
    ["\\p{L}+\\d", ["é1"], ["11"]],
    // A backreference, which re2js cannot express: the built-in RegExp, as the host wrote it.
    ["^(a+)\\1$", ["aaaa"], ["aaa"]],
  ];
  for (const [pattern, valid, invalid] of cases) {
    const tools = new ToolSet().register(hostTool(pattern));
    assert.deepEqual(await kindsOf(tools, [...valid, ...invalid]), [
      ...valid.map(() => "output"),
      ...invalid.map(() => "invalid_input"),
    ], pattern);
  }
});

Deno.test("patterns: nativePatterns runs every pattern of a host's schema on the built-in RegExp, and keeps it trusted", async () => {
  const tools = new ToolSet().register(hostTool("^(\\w+\\s?)+$", nativePatterns));
  assert.deepEqual(await kindsOf(tools, ["checked by hand", "no!"]), ["output", "invalid_input"]);
  // Trusted: a schema only the fallback validator runs is still defined (an untrusted one is refused).
  const fallback = { $schema: "http://json-schema.org/draft-04/schema#", type: "object", $id: "urn:x" };
  assert.doesNotThrow(() =>
    defineJsonTool({
      name: "old",
      description: "A draft-04 schema of the host's own.",
      inputSchema: fallback,
      patterns: nativePatterns,
      effects: [],
      run: () => ({}),
    })
  );
  assert.throws(() => untrustedTool(fallback), InvalidSpecError);
});

Deno.test("defineJsonTool() refuses an untrusted pattern the linear-time engine cannot express, naming it", () => {
  assert.throws(
    () => untrustedTool({ type: "object", properties: { a: { type: "string", pattern: "^(a)\\1$" } } }),
    (error) =>
      error instanceof InvalidSpecError &&
      error.message.includes('the pattern "^(a)\\\\1$" at /properties/a/pattern') &&
      error.problems[0].path === "/properties/a/pattern",
  );
});

// The fallback validator has no step budget, so an untrusted schema of a draft only it would run
// (draft-04, draft-06, 2019-09) is compiled as the nearest compiled draft and so bounded the same way.
for (const draft of ["4", "6", "2019-09"] as const) {
  Deno.test(`an untrusted draft ${draft} exponential schema is refused at definition or bounded per call, never run unbounded`, async () => {
    assert.throws(() => untrustedTool(exponentialSchema(22, draft)), /references expand to more than 100000 schemas/);
    const tools = new ToolSet().register(untrustedTool(exponentialSchema(14, draft)));
    const { result: end, gapMs } = await largestGap(() => callOnce(tools, { list: new Array(40).fill("a") }));
    console.log(`draft ${draft}, 14 levels: ${end.type}, largest event-loop gap ${gapMs.toFixed(1)} ms`);
    assert.equal(end.type === "failed" && end.failure.kind, "contract");
    assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
  });
}

Deno.test("an untrusted draft-04 schema's boolean exclusiveMaximum and exclusiveMinimum keep their draft-04 meaning", async () => {
  const tools = new ToolSet().register(untrustedTool({
    $schema: "http://json-schema.org/draft-04/schema#",
    type: "object",
    properties: {
      below: { type: "number", maximum: 5, exclusiveMaximum: true },
      upTo: { type: "number", maximum: 5, exclusiveMaximum: false },
      above: { type: "number", minimum: 1, exclusiveMinimum: true },
    },
  }));
  const kindOf = async (args: unknown) => {
    const end = await callOnce(tools, args);
    return end.type === "failed" ? end.failure.kind : end.type;
  };
  assert.equal(await kindOf({ below: 4.9, upTo: 5, above: 1.1 }), "output");
  assert.equal(await kindOf({ below: 5 }), "invalid_input");
  assert.equal(await kindOf({ above: 1 }), "invalid_input");
});

Deno.test("an untrusted schema is refused, naming the keyword, where the draft it is compiled as reads it differently", () => {
  const refusals: [JsonSchema, RegExp][] = [
    [
      { $schema: "http://json-schema.org/draft-04/schema#", type: "object", properties: { a: { const: 1 } } },
      /^Cannot compile the inputSchema as draft 7, which untrusted schemas of draft 4 are compiled as: "const" at \/properties\/a means something else there$/,
    ],
    [
      {
        $schema: "http://json-schema.org/draft-06/schema#",
        type: "object",
        properties: { a: { if: { type: "string" } } },
      },
      /^Cannot compile the inputSchema as draft 7, which untrusted schemas of draft 6 are compiled as: "if" at \/properties\/a means something else there$/,
    ],
    [
      {
        $schema: "https://json-schema.org/draft/2019-09/schema",
        type: "object",
        properties: { a: { items: [{ type: "string" }] } },
      },
      /^Cannot compile the inputSchema as draft 2020-12, which untrusted schemas of draft 2019-09 are compiled as: "items" at \/properties\/a means something else there$/,
    ],
    [
      {
        $schema: "https://json-schema.org/draft/2019-09/schema",
        $recursiveAnchor: true,
        type: "object",
        additionalProperties: { $recursiveRef: "#" },
      },
      /: "\$recursiveAnchor" at the root means something else there$/,
    ],
  ];
  for (const [schema, message] of refusals) {
    assert.throws(
      () => untrustedTool(schema),
      (error) => error instanceof InvalidSpecError && message.test(error.message),
    );
  }
});

Deno.test("an untrusted schema that only the fallback validator could run is refused; a trusted one still runs there", async () => {
  const recursive: JsonSchema = {
    $recursiveAnchor: true,
    type: "object",
    additionalProperties: { $recursiveRef: "#" },
  };
  assert.throws(
    () => untrustedTool(recursive),
    /Cannot compile the inputSchema as it would need the fallback validator \(.*\), which has no step budget: untrusted schemas run only on the compiled validator$/,
  );
  // A draft-04 schema with a `$id`, which draft-04 ignores and draft-07 reads: not compiled as draft-07, so it runs on
  // the fallback.
  const trusted = compileSchema({
    $schema: "http://json-schema.org/draft-04/schema#",
    $id: "urn:below-5",
    maximum: 5,
    exclusiveMaximum: true,
  });
  assert.equal(trusted.engine, "fallback");
  await trusted.loading;
  assert.equal(trusted.validate(5).ok, false);
  assert.equal(trusted.validate(4).ok, true);
});

// Work that grows with the value is charged to the step budget wherever a schema can repeat it: each pattern test,
// each item or key a loop reads, each code point count and canonical encoding. Before, these calls blocked for 0.17
// to 3 seconds within the budget (the pattern tests ran to the end and failed as invalid_input).
/** An object schema that reaches its `x` property through `length` allOf/$ref pairs, and `x` through the same. */
function referenceChain(length: number): JsonSchema {
  const defs: Record<string, JsonSchema> = {};
  for (let i = 0; i < length; i++) defs[`a${i}`] = { allOf: [{ $ref: `#/$defs/a${i + 1}` }] };
  defs[`a${length}`] = { type: "object", properties: { x: { $ref: "#/$defs/a0" } } };
  return { type: "object", $defs: defs, $ref: "#/$defs/a0" };
}

/** `{ x: { x: ... {} } }`, `levels` deep. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 0; level < levels; level++) value = { x: value };
  return value;
}

const costlyOverLargeValues: [string, JsonSchema, unknown, "output" | "contract"][] = [
  [
    "40 patterns on a 250,000-digit string",
    {
      type: "object",
      properties: {
        code: { allOf: Array.from({ length: 40 }, (_, i) => ({ pattern: `^[a-z0-9]{1,20}\\d*!${"x".repeat(i)}` })) },
      },
    },
    { code: "1".repeat(250_000) },
    "contract",
  ],
  [
    "an enum of 4,000 arrays against 30,000 items",
    { type: "object", properties: { list: { items: { enum: Array.from({ length: 4_000 }, (_, i) => [i]) } } } },
    { list: new Array(30_000).fill([3_999]) },
    "output",
  ],
  [
    "450 item schemas in an allOf over 40,000 strings",
    {
      type: "object",
      properties: { list: { allOf: Array.from({ length: 450 }, (_, i) => ({ items: { maxLength: 100 + i } })) } },
    },
    { list: new Array(40_000).fill("ab") },
    "contract",
  ],
  [
    "900 maxLength in an allOf over a 120,000-character string",
    {
      type: "object",
      properties: { text: { allOf: Array.from({ length: 900 }, (_, i) => ({ maxLength: 100_000 + i })) } },
    },
    { text: "é".repeat(120_000) },
    "contract",
  ],
  [
    "40 uniqueItems in an allOf over 8,500 objects",
    { type: "object", properties: { list: { allOf: new Array(40).fill({ uniqueItems: true }) } } },
    { list: Array.from({ length: 8_500 }, (_, i) => ({ a: [i, { b: "xxxxxxxx" }] })) },
    "contract",
  ],
  [
    "a chain of 245 allOf/$ref pairs applied again at each of 31 levels",
    referenceChain(245),
    nested(31),
    "contract",
  ],
];
for (const [what, schema, args, ending] of costlyOverLargeValues) {
  Deno.test(`${what} ends without blocking the event loop`, async () => {
    const tools = new ToolSet().register(untrustedTool(schema));
    const { result: end, gapMs } = await largestGap(() => callOnce(tools, args));
    console.log(`${what}: ${end.type}, largest event-loop gap ${gapMs.toFixed(1)} ms`);
    assert.equal(end.type === "failed" ? end.failure.kind : end.type, ending);
    if (ending === "contract") {
      assert.match(
        end.type === "failed" ? end.failure.message : "",
        /(steps|ms|deeper than the call stack allows): the schema's cost multiplies/,
      );
    }
    assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
  });
}
