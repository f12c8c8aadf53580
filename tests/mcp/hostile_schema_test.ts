// An MCP server's schemas are untrusted: a tool whose schema would expand
// without bound or needs a pattern the linear-time engine cannot express
// makes connecting fail with an error naming it; a call whose arguments or
// structuredContent exceed the step budget ends in a typed failure; and the
// host's event loop is never blocked for long.

import assert from "node:assert/strict";
import { ToolSet } from "../../mod.ts";
import { McpConnectionError } from "../../mcp.ts";
import { connectFixture } from "./_helpers.ts";
import { largestGap } from "../fixtures/event_loop.ts";
import { NESTED_QUANTIFIER_TEXT } from "../fixtures/hostile_schemas.ts";

// A bound against hangs, not a speed claim: the validation itself takes about 10 ms.
const MAX_GAP_MS = 50;

for (const levels of [20, 30]) {
  Deno.test(`connecting refuses a server tool whose input schema expands to 2^${levels} schemas, naming it`, async () => {
    const { result: error, gapMs } = await largestGap(() =>
      connectFixture(`exponential-${levels}`).then(
        async (connection) => {
          await connection.close();
          return undefined;
        },
        (error: unknown) => error,
      )
    );
    console.log(`exponential-${levels}: refused, largest event-loop gap ${gapMs.toFixed(1)} ms`);
    assert.ok(error instanceof McpConnectionError);
    assert.match(error.message, /the tool "deep" of MCP server "fixture".*expand to more than 100000 schemas/);
    assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
  });
}

Deno.test("connecting refuses a server tool whose pattern the linear-time engine cannot express, naming the pattern", async () => {
  await assert.rejects(
    connectFixture("backreference"),
    (error: unknown) =>
      error instanceof McpConnectionError && error.message.includes('"twice"') &&
      error.message.includes('the pattern "^(a)\\\\1$"') && /backreference/.test(error.message),
  );
});

Deno.test("a server's costly schemas end each call in a typed failure without blocking the event loop", async () => {
  await using connection = await connectFixture("hostile");
  const tools = new ToolSet().register(...connection.tools);
  const call = (name: string, args: unknown) =>
    tools.call({ id: name, name: `fixture__${name}`, arguments: JSON.stringify(args) });
  const { result, gapMs } = await largestGap(async () => ({
    costlyInput: await call("costly", { list: new Array(40).fill("x") }),
    costlyOutput: await call("costly", {}),
    redosInput: await call("redos", { text: NESTED_QUANTIFIER_TEXT }),
    redosOutput: await call("redos", { text: "aaaa" }),
  }));
  console.log(`hostile server: largest event-loop gap ${gapMs.toFixed(1)} ms`);
  const kinds = Object.fromEntries(
    Object.entries(result).map(([name, end]) => [name, end.type === "failed" ? end.failure.kind : end.type]),
  );
  assert.deepEqual(kinds, {
    costlyInput: "contract",
    costlyOutput: "contract",
    redosInput: "invalid_input",
    redosOutput: "invalid_output",
  });
  const { costlyInput, costlyOutput } = result;
  assert.match(
    costlyInput.type === "failed" ? costlyInput.failure.message : "",
    /input schema of "fixture__costly" as one value took more than/,
  );
  assert.match(
    costlyOutput.type === "failed" ? costlyOutput.failure.message : "",
    /output schema of "fixture__costly" as one value took more than/,
  );
  assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
});
