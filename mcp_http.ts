/**
 * MCP tools for Salvor over Streamable HTTP only: the entrypoint for edge
 * runtimes (Cloudflare Workers, browsers, Deno Deploy), which cannot spawn
 * processes. It imports no `node:` module. `@salvor/tools/mcp` adds stdio.
 *
 * @example Connect and register
 * ```ts
 * import { ToolSet } from "@salvor/tools";
 * import { connectMcpServer } from "@salvor/tools/mcp/http";
 * import { McpServer } from "@modelcontextprotocol/server";
 * import { InMemoryTransport } from "@modelcontextprotocol/client";
 * import assert from "node:assert/strict";
 *
 * const server = new McpServer({ name: "notes", version: "1.0.0" });
 * server.registerTool("list", { description: "Lists notes." }, () => ({ content: [{ type: "text", text: "[]" }] }));
 * const [mine, theirs] = InMemoryTransport.createLinkedPair();
 * await server.connect(theirs);
 *
 * await using notes = await connectMcpServer({ name: "notes", transport: mine });
 * const tools = notes.register(new ToolSet());
 * assert.equal(tools.get("notes__list")?.descriptor.semantics.concurrency, "serial");
 * ```
 *
 * @module
 */

export {
  connectMcpServer,
  type McpAuthProvider,
  type McpBearerAuth,
  type McpHttpOptions,
  type McpOAuthClient,
} from "./src/mcp/client/connect_http.ts";
export {
  McpConnectionError,
  type McpConnectionOptions,
  type McpInputContext,
  type McpInputPayload,
  type McpInputRequest,
  type McpPrior,
  McpServerConnection,
  type McpTool,
  type McpToolOverride,
  type McpToolRegistry,
  type McpToolsChange,
  type McpToolWarning,
  type McpTransport,
  type McpTransportOptions,
  type ServerProcessInfo,
} from "./src/mcp/client/connection.ts";
export * from "./src/mcp/client/effects.ts";
export * from "./src/mcp/client/names.ts";
