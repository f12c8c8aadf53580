// An MCP server's schemas are untrusted: a tool whose schema would expand
// without bound or needs a pattern the linear-time engine cannot express
// is left out with a warning naming it, the rest of the server still works; a call whose arguments or
// structuredContent exceed the step budget ends in a typed failure; a call
// whose input request's schema needs a pattern that engine cannot express
// fails before anyone is asked or anything is parked; and the host's event
// loop is never blocked for long.

import assert from "node:assert/strict";
import { createMcpHandler, inputRequired, McpServer } from "@modelcontextprotocol/server";
import { ToolSet } from "../../mod.ts";
import { connectMcpServer, type McpConnectionOptions } from "../../mcp_http.ts";
import { connectFixture } from "./_helpers.ts";
import { gapBound, largestGap, largestGapOfEach } from "../fixtures/event_loop.ts";
import { NESTED_QUANTIFIER_TEXT } from "../fixtures/hostile_schemas.ts";

// A bound against hangs, not a speed claim: the validation itself takes about 10 ms.
const MAX_GAP_MS: number = gapBound();

for (const levels of [20, 30]) {
  Deno.test(`connecting leaves out a server tool whose input schema expands to 2^${levels} schemas, naming it`, async () => {
    const { result: connection, gapMs } = await largestGap(() => connectFixture(`exponential-${levels}`));
    await using _closed = connection;
    console.log(`exponential-${levels}: left out, largest event-loop gap ${gapMs.toFixed(1)} ms`);
    assert.deepEqual(connection.tools.map((tool) => tool.toolName), []);
    const warning = connection.warnings.find((warning) => warning.tool === "deep");
    assert.match(warning?.message ?? "", /expand to more than 100000 schemas/);
    assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
  });
}

Deno.test("connecting to a server with 120 schemas of 12 KB yields to the event loop while it defines them", async () => {
  const { result: connection, gapMs } = await largestGap(() => connectFixture("wide-schemas"));
  await using _closed = connection;
  console.log(`wide-schemas: ${connection.tools.length} tools, largest event-loop gap ${gapMs.toFixed(1)} ms`);
  assert.equal(connection.tools.length, 120);
  assert.deepEqual(connection.warnings, []);
  assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
});

Deno.test("connecting to a server with a page of 120 large schemas yields to the event loop while it checks the page", async () => {
  const { result: connection, gapMs } = await largestGap(() => connectFixture("long-page"));
  await using _closed = connection;
  console.log(`long-page: ${connection.tools.length} tools, largest event-loop gap ${gapMs.toFixed(1)} ms`);
  assert.equal(connection.tools.length, 120);
  assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
});

Deno.test("connecting leaves out a server tool whose input schema holds 80,000 schemas, and calls one of 992, without blocking the event loop", async () => {
  const { result: connection, gapMs } = await largestGap(() => connectFixture("dense-schemas"));
  await using _closed = connection;
  console.log(`dense-schemas: ${connection.tools.length} tools, largest event-loop gap ${gapMs.toFixed(1)} ms`);
  assert.deepEqual(connection.tools.map((tool) => tool.toolName), ["large"]);
  const warning = connection.warnings.find((warning) => warning.tool === "dense");
  assert.match(warning?.message ?? "", /holds more than 5000 objects and arrays/);
  assert.ok(gapMs < MAX_GAP_MS, `connecting blocked the event loop for ${gapMs} ms`);
  // The first call compiles the schema of 992.
  const tools = new ToolSet().register(...connection.tools);
  const arguments_ = JSON.stringify({ record: { field_0: "a", field_989: "b" } });
  const { result: end, gapMs: callGapMs } = await largestGap(() =>
    tools.call({ id: "large", name: "fixture__large", arguments: arguments_ })
  );
  console.log(
    `dense-schemas: the first call of "large" ${end.type}, largest event-loop gap ${callGapMs.toFixed(1)} ms`,
  );
  assert.equal(end.type, "output");
  assert.ok(callGapMs < MAX_GAP_MS, `the first call blocked the event loop for ${callGapMs} ms`);
});

Deno.test("connecting leaves out server tools whose patterns would take long to compile, without blocking the event loop", async () => {
  const { result: connection, gapMs } = await largestGap(() => connectFixture("many-patterns"));
  await using _closed = connection;
  console.log(`many-patterns: largest event-loop gap ${gapMs.toFixed(1)} ms`);
  assert.deepEqual(connection.tools.map((tool) => tool.toolName), ["echo"]);
  for (const name of ["many", "letters"]) {
    const warning = connection.warnings.find((warning) => warning.tool === name);
    assert.match(warning?.message ?? "", /an untrusted schema's pattern counts as 400 schemas/, name);
  }
  assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
});

Deno.test("connecting leaves out a server tool whose pattern the linear-time engine cannot express, naming the pattern", async () => {
  await using connection = await connectFixture("backreference");
  assert.deepEqual(connection.tools.map((tool) => tool.toolName), []);
  const warning = connection.warnings.find((warning) => warning.tool === "twice");
  assert.ok(warning, JSON.stringify(connection.warnings));
  assert.ok(warning.message.includes(String.raw`the pattern "^(a)\\1$"`), warning.message);
  assert.match(warning.message, /backreference/);
});

Deno.test("a server's costly schemas end each call in a typed failure without blocking the event loop", async () => {
  await using connection = await connectFixture("hostile");
  const tools = new ToolSet().register(...connection.tools);
  const call = (name: string, args: unknown) =>
    tools.call({ id: name, name: `fixture__${name}`, arguments: JSON.stringify(args) });
  // Each call measured on its own.
  const { results: [costlyInput, costlyOutput, redosInput, redosOutput], gapMs } = await largestGapOfEach([
    () => call("costly", { list: new Array(40).fill("x") }),
    () => call("costly", {}),
    () => call("redos", { text: NESTED_QUANTIFIER_TEXT }),
    () => call("redos", { text: "aaaa" }),
  ]);
  const result = { costlyInput, costlyOutput, redosInput, redosOutput };
  console.log(`hostile server: largest event-loop gap of a call ${gapMs.toFixed(1)} ms`);
  const kinds = Object.fromEntries(
    Object.entries(result).map(([name, end]) => [name, end.type === "failed" ? end.failure.kind : end.type]),
  );
  assert.deepEqual(kinds, {
    costlyInput: "contract",
    costlyOutput: "contract",
    redosInput: "invalid_input",
    redosOutput: "invalid_output",
  });
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

Deno.test("a server's costly draft-04, draft-06 and 2019-09 schemas are bounded like 2020-12 ones, never run on the fallback", async () => {
  await using connection = await connectFixture("hostile-old-drafts");
  assert.deepEqual(connection.warnings, []);
  const tools = new ToolSet().register(...connection.tools);
  // Each call measured on its own.
  const { results: result, gapMs } = await largestGapOfEach(
    ["costly-4", "costly-6", "costly-2019-09"].flatMap((name) =>
      [{ list: new Array(40).fill("x") }, {}].map((args) => () =>
        tools.call({ id: name, name: `fixture__${name}`, arguments: JSON.stringify(args) })
      )
    ),
  );
  console.log(`hostile old drafts: largest event-loop gap of a call ${gapMs.toFixed(1)} ms`);
  const messages = result.map((end) => end.type === "failed" && end.failure.kind === "contract" && end.failure.message);
  assert.equal(messages.length, 6);
  for (const [i, message] of messages.entries()) {
    const side = i % 2 === 0 ? "input" : "output";
    assert.match(message || "", new RegExp(`${side} schema of "fixture__costly-.*" as one value took more than`));
  }
  assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);
});

/** A lookaround that backtracks for minutes on the built-in RegExp against a sentence ending in "!". */
const LOOKAROUND = String.raw`^(?=(\w+\s?)*$)`;

/** Connects to a 2026-07-28 server in this process whose "ship" tool asks for a name matching LOOKAROUND. */
function connectAsking(options: Partial<McpConnectionOptions> = {}) {
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "deploy", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.registerTool("ship", { description: "Deploys." }, () =>
      inputRequired({
        inputRequests: {
          region: inputRequired.elicit({
            message: "Which region?",
            requestedSchema: {
              type: "object",
              properties: { name: { type: "string", pattern: LOOKAROUND } },
              required: ["name"],
            } as never,
          }),
        },
      }));
    return server;
  }, { legacy: "reject" });
  return connectMcpServer({
    name: "deploy",
    url: "http://deploy.example/mcp",
    fetch: (input, init) => handler.fetch(new Request(input, init)),
    ...options,
  });
}

Deno.test("an input request whose schema has a lookaround fails the call, naming the pattern, before the live handler is asked", async () => {
  let asked = 0;
  await using connection = await connectAsking({
    onInputRequest: () => {
      asked++;
      return { action: "accept", content: { name: "eu west" } };
    },
  });
  assert.equal(connection.era, "modern");
  const end = await connection.register(new ToolSet()).call({ id: "1", name: "deploy__ship", arguments: {} });
  assert.equal(end.type === "failed" && end.failure.kind, "handler", JSON.stringify(end).slice(0, 300));
  assert.ok(end.type === "failed" && end.failure.message.includes(`the pattern ${JSON.stringify(LOOKAROUND)}`));
  assert.match(end.type === "failed" ? end.failure.message : "", /input requests of "ship".*lookaround/);
  assert.equal(asked, 0);
});

Deno.test("an input request whose schema has a lookaround fails the call instead of parking a record that carries it", async () => {
  await using connection = await connectAsking();
  const tools = connection.register(
    new ToolSet({ seal: { key: { id: "k1", secret: "a-secret-of-at-least-32-bytes-0123" } } }),
  );
  const end = await tools.call({ id: "1", name: "deploy__ship", arguments: {} });
  assert.equal(end.type === "failed" && end.failure.kind, "handler", JSON.stringify(end).slice(0, 300));
  assert.match(end.type === "failed" ? end.failure.message : "", /lookaround/);
});
