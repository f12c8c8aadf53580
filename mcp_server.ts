/**
 * A `ToolSet` served as an MCP server: over stdio for a client that spawns
 * the process, and as a web-standard `fetch` handler for Streamable HTTP in
 * Deno, Bun, Node, Cloudflare Workers and Vercel's edge runtime. Tools are
 * listed with their schemas and with annotations derived from their effects;
 * calls run through the set's whole pipeline, and failures reach the model
 * as tool errors.
 *
 * @example Serve a tool set over HTTP and call it with the module's own client
 * ```ts
 * import { defineJsonTool, ToolSet } from "@salvor/tools";
 * import { createMcpFetchHandler } from "@salvor/tools/mcp/server";
 * import { connectMcpServer } from "@salvor/tools/mcp/http";
 * import assert from "node:assert/strict";
 *
 * const greet = defineJsonTool({
 *   name: "greet",
 *   description: "Greets a person.",
 *   inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
 *   effects: [],
 *   run: (input: { name: string }) => ({ text: `Hello, ${input.name}!` }),
 * });
 * const handler = createMcpFetchHandler(new ToolSet().register(greet), { name: "greeter", version: "1.0.0" });
 * // In a Worker: `export default handler`. In Deno, on a loopback port:
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler.fetch);
 *
 * await using remote = await connectMcpServer({ name: "greeter", url: `http://127.0.0.1:${server.addr.port}/mcp` });
 * const tools = remote.register(new ToolSet());
 * const done = await tools.call({ id: "1", name: "greeter__greet", arguments: { name: "Ada" } });
 * assert.deepEqual(done.type === "output" && done.result.content, [{ type: "text", text: '{"text":"Hello, Ada!"}' }]);
 *
 * await remote.close();
 * await handler.close();
 * await server.shutdown();
 * ```
 *
 * @module
 */

export {
  createMcpFetchHandler,
  type McpAuthInfo,
  type McpFetchHandler,
  type McpFetchHandlerOptions,
} from "./src/mcp/server/fetch_handler.ts";
export {
  type McpServerTransport,
  type McpStdioServeOptions,
  type McpStdioServer,
  serveStdio,
} from "./src/mcp/server/stdio.ts";
export type { McpServeOptions, McpServerInfo } from "./src/mcp/server/options.ts";
