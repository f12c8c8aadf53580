// Case 9: one tools/call (2026-07-28) through this module's fetch handler,
// against the same tool served by a bare @modelcontextprotocol/server
// McpServer behind the SDK's own createMcpHandler. Both answer in process
// (no socket, so the network's noise does not hide the handlers' cost),
// after a long warm-up, in paired rounds whose order alternates; medians.
// Ours adds the Host check, the bounded body read, the call bound, and
// ToolSet dispatch with its validation in place of the SDK's.

import { createMcpHandler, fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { defineJsonTool, ToolSet } from "../mod.ts";
import { createMcpFetchHandler } from "../mcp_server.ts";
import { check, compare, type Mode, ratioRows, type Row } from "./_harness.ts";

const GROUP = "9. MCP server, one tools/call (2026-07-28), in process";
const BARE = "bare SDK McpServer + createMcpHandler";
const OURS = "createMcpFetchHandler (ToolSet)";

const INPUT = {
  type: "object",
  properties: { a: { type: "number" }, b: { type: "number" } },
  required: ["a", "b"],
} as const;
const OUTPUT = { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] } as const;
const INFO = { name: "bench", version: "1.0.0" };

const BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: {
    name: "add",
    arguments: { a: 2, b: 3 },
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
});
const HEADERS = {
  host: "localhost",
  accept: "application/json, text/event-stream",
  "content-type": "application/json",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "add",
};

function bare(): (request: Request) => Promise<Response> {
  const handler = createMcpHandler(() => {
    const server = new McpServer(INFO, { capabilities: { tools: {} } });
    server.registerTool(
      "add",
      { description: "Adds two numbers.", inputSchema: fromJsonSchema(INPUT), outputSchema: fromJsonSchema(OUTPUT) },
      (args) => {
        const { a, b } = args as { a: number; b: number };
        return { content: [{ type: "text", text: JSON.stringify({ sum: a + b }) }], structuredContent: { sum: a + b } };
      },
    );
    return server;
  });
  return handler.fetch;
}

function ours(): (request: Request) => Promise<Response> {
  const add = defineJsonTool({
    name: "add",
    description: "Adds two numbers.",
    inputSchema: INPUT,
    outputSchema: OUTPUT,
    effects: [],
    run: (input: { a: number; b: number }) => ({ sum: input.a + input.b }),
  });
  return createMcpFetchHandler(new ToolSet().register(add), INFO).fetch;
}

/** One call: the request made, answered, and its sum read back. */
function caller(fetch: (request: Request) => Promise<Response>): () => Promise<number> {
  return async () => {
    const response = await fetch(new Request("http://localhost/mcp", { method: "POST", headers: HEADERS, body: BODY }));
    const message = await response.json();
    return message.result.structuredContent.sum;
  };
}

/**
 * Runs case 9.
 *
 * @param mode Full or smoke.
 * @returns The two rows, ours relative to the bare SDK server.
 */
export async function mcpServerCase(mode: Mode): Promise<Row[]> {
  const contenders = [{ name: BARE, run: caller(bare()) }, { name: OURS, run: caller(ours()) }];
  for (const contender of contenders) {
    check(await contender.run() === 5, `${contender.name} did not answer the call with its sum`);
  }
  // A long warm-up: both handlers build a server per request, which the JIT needs many rounds to settle.
  for (let i = 0; i < (mode.smoke ? 10 : 3_000); i++) {
    for (const contender of contenders) await contender.run();
  }
  const stats = await compare(contenders, mode);
  return ratioRows(GROUP, [BARE, OURS], stats, "ns", BARE, {
    [OURS]: (ratio) => ({ text: "≤ 1.15× the bare SDK server", met: ratio <= 1.15 }),
  });
}
