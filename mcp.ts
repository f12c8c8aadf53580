/**
 * MCP tools for Salvor: connect to MCP servers over stdio (a spawned
 * process) or Streamable HTTP and dispatch their tools like native ones,
 * through the same `ToolSet.call`. Every page of tools is listed, names are
 * provider-safe (`<server>__<tool>`) and never collide silently, effects
 * fail closed unless the host trusts the server, arguments are validated
 * before anything is sent, results are validated against the tool's output
 * schema, and a dead server fails calls promptly as `unavailable`.
 *
 * Edge runtimes, which cannot spawn processes, import `@salvor/tools/mcp/http`.
 *
 * @example Dispatch an MCP server's tools beside a native tool
 * ```ts
 * import { defineJsonTool, ToolSet } from "@salvor/tools";
 * import { connectMcpServer } from "@salvor/tools/mcp";
 * import { McpServer } from "@modelcontextprotocol/server";
 * import { InMemoryTransport } from "@modelcontextprotocol/client";
 * import assert from "node:assert/strict";
 *
 * const server = new McpServer({ name: "weather", version: "1.0.0" });
 * server.registerTool(
 *   "forecast",
 *   { description: "Tomorrow's weather.", annotations: { readOnlyHint: true, openWorldHint: false } },
 *   () => ({ content: [{ type: "text", text: "sunny" }] }),
 * );
 * const [mine, theirs] = InMemoryTransport.createLinkedPair();
 * await server.connect(theirs);
 *
 * await using weather = await connectMcpServer({ name: "weather", transport: mine, trusted: true });
 * const clock = defineJsonTool({
 *   name: "now",
 *   description: "The time.",
 *   inputSchema: { type: "object" },
 *   effects: [],
 *   run: () => ({ iso: "2026-01-01T00:00:00Z" }),
 * });
 * const tools = weather.register(new ToolSet().register(clock));
 * assert.deepEqual(tools.descriptors().map((d) => d.name), ["now", "weather__forecast"]);
 * assert.deepEqual(tools.get("weather__forecast")?.descriptor.effects, ["external.read"]);
 *
 * const done = await tools.call({ id: "call_1", name: "weather__forecast", arguments: "{}" });
 * assert.deepEqual(done.type === "output" && done.result.content, [{ type: "text", text: "sunny" }]);
 * ```
 *
 * @module
 */

// Everything the HTTP-only entrypoint has; its connectMcpServer gives way to the one that also spawns stdio servers.
export * from "./mcp_http.ts";
export { connectMcpServer, type McpServerOptions, type McpStdioOptions } from "./src/mcp/client/connect.ts";
