// Hostile raw JSON Schemas given to defineJsonTool as untrusted (patterns on
// the linear-time engine): each is refused at definition or each call ends in
// a typed failure, and the event loop is never blocked for long.

import assert from "node:assert/strict";
import { defineJsonTool, InvalidSpecError, type JsonSchema, type TerminalEvent, ToolSet } from "../../../mod.ts";
import { linearPatterns } from "../../../dyn.ts";
import { exponentialSchema, NESTED_QUANTIFIER_SCHEMA, NESTED_QUANTIFIER_TEXT } from "../../fixtures/hostile_schemas.ts";
import { largestGap } from "../../fixtures/event_loop.ts";

// A bound against hangs, not a speed claim: the work itself takes about 10 ms.
const MAX_GAP_MS = 50;

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

Deno.test("ToolSet.call() ends a call whose input schema exceeds the step budget as a contract failure naming the schema", async () => {
  const tools = new ToolSet().register(untrustedTool(exponentialSchema(14)));
  const args = { list: new Array(40).fill("secret-argument") };
  const { result: end, gapMs } = await largestGap(() => callOnce(tools, args));
  console.log(`14 levels, input: ${end.type}, largest event-loop gap ${gapMs.toFixed(1)} ms`);
  assert.equal(end.type, "failed");
  if (end.type !== "failed") return;
  assert.equal(end.failure.kind, "contract");
  assert.equal(end.failure.retryable, false);
  assert.match(end.failure.message, /inputSchema as one value took more than 1000000 steps/);
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
  assert.match(end.failure.message, /outputSchema as one value took more than 1000000 steps/);
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

Deno.test("defineJsonTool() refuses an untrusted pattern the linear-time engine cannot express, naming it", () => {
  assert.throws(
    () => untrustedTool({ type: "object", properties: { a: { type: "string", pattern: "^(a)\\1$" } } }),
    (error) =>
      error instanceof InvalidSpecError &&
      error.message.includes('the pattern "^(a)\\\\1$" at /properties/a/pattern') &&
      error.problems[0].path === "/properties/a/pattern",
  );
});
