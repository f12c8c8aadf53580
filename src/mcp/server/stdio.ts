/**
 * A `ToolSet` served over stdio, for a process an MCP client spawns.
 *
 * @module
 */

import type { Transport } from "@modelcontextprotocol/server";
// The SDK's own stdin and stdout: node:process in Node.js, Deno and Bun, a stub that throws in a Worker, which
// therefore may import this file.
import { process } from "@modelcontextprotocol/server/_shims";
import { serveStdio as serveSdkStdio } from "@modelcontextprotocol/server/stdio";
import type { ToolSet } from "../../core/dispatch/tool_set.ts";
import { CallGate } from "./_call_gate.ts";
import { DepthBoundTransport } from "./_message_depth.ts";
import { ServerStdioTransport } from "./_stdio_transport.ts";
import { noParking, sealedParking } from "./_parking.ts";
import { requestStateCodec } from "./_request_state.ts";
import { toolServer } from "./_tool_server.ts";
import { type McpServeOptions, type McpServerInfo, resolveServeOptions } from "./options.ts";
import { showValue } from "../../core/common/_show_value.ts";

/**
 * A transport of the MCP SDK (`Transport` of `@modelcontextprotocol/server`)
 * to serve on instead of stdio, such as one end of `InMemoryTransport.createLinkedPair()`.
 */
export interface McpServerTransport {
  /** Starts receiving messages. */
  start(): Promise<void>;
  /** Sends one message. */
  send(message: never, options?: never): Promise<void>;
  /** Closes the transport. */
  close(): Promise<void>;
}

/** Options of {@linkcode serveStdio}. */
export interface McpStdioServeOptions extends McpServeOptions {
  /**
   * The transport to serve on instead of this process's stdin and stdout,
   * e.g. one end of the SDK's `InMemoryTransport` pair in a test.
   */
  readonly transport?: McpServerTransport;
}

/** The running server {@linkcode serveStdio} returns. */
export interface McpStdioServer {
  /** Sends `notifications/tools/list_changed` to the client; call it after changing the set. */
  toolsChanged(): void;
  /** Ends the connection: calls in flight are aborted and stdin is let go. */
  close(): Promise<void>;
}

/**
 * Serves a tool set over stdio: the process reads requests on stdin and
 * writes answers on stdout (log to stderr only). Both the 2026-07-28
 * revision and 2025-era clients are served; the connection keeps the era
 * its client opened with.
 *
 * `tools/list` lists the set's descriptors at each request; `tools/call`
 * runs the call through `ToolSet.stream` with the set's whole pipeline. A
 * failed call is a tool error (`isError: true`) with the failure's model
 * text; progress reaches a client that sent a progress token;
 * `notifications/cancelled` aborts the call.
 *
 * Deno needs no permission beyond what the tools themselves use.
 *
 * @param toolset The tools to serve.
 * @param info The server's name and version.
 * @param options Limits, and a transport to use instead of stdio.
 * @returns The running server.
 * @throws {TypeError} On malformed info or options, and when the set and
 * `options.seal` disagree (a set with an approval gate and no seal, a sealed
 * set served without its seal).
 * @throws {RangeError} On a bound that is not a positive integer.
 *
 * @example Serve a set to an in-process client
 * ```ts
 * import { defineJsonTool, ToolSet } from "@salvor/tools";
 * import { serveStdio } from "@salvor/tools/mcp/server";
 * import { connectMcpServer } from "@salvor/tools/mcp";
 * import { InMemoryTransport } from "@modelcontextprotocol/server";
 * import assert from "node:assert/strict";
 *
 * const ping = defineJsonTool({
 *   name: "ping",
 *   description: "Answers pong.",
 *   inputSchema: { type: "object" },
 *   effects: [],
 *   run: () => ({ pong: true }),
 * });
 * const [client, server] = InMemoryTransport.createLinkedPair();
 * const running = serveStdio(new ToolSet().register(ping), { name: "ping", version: "1.0.0" }, { transport: server });
 *
 * await using remote = await connectMcpServer({ name: "remote", transport: client as never });
 * const tools = remote.register(new ToolSet());
 * const done = await tools.call({ id: "1", name: "remote__ping" });
 * assert.deepEqual(done.type === "output" && done.result.content, [{ type: "text", text: '{"pong":true}' }]);
 * await running.close();
 * ```
 */
export function serveStdio(toolset: ToolSet, info: McpServerInfo, options: McpStdioServeOptions = {}): McpStdioServer {
  const resolved = resolveServeOptions(info, options);
  const codec = requestStateCodec(toolset, options.seal);
  const { transport } = options;
  if (transport !== undefined && (typeof transport !== "object" || typeof transport?.send !== "function")) {
    throw new TypeError(
      `Cannot serve MCP as options.transport must be an MCP transport: current value is ${showValue(transport)}`,
    );
  }
  const gate = new CallGate(resolved.maxCallsInFlight);
  // A 2025-era client that declared elicitation is asked through the SDK's shim, on this same connection.
  const parking = codec === undefined ? noParking("no_seal") : sealedParking(toolset, codec);
  const servers = new Set<ReturnType<typeof toolServer>>();
  const handle = serveSdkStdio(
    () => {
      const server = toolServer({ toolset, info, options: resolved, gate, parking }, codec);
      servers.add(server);
      server.onclose = () => servers.delete(server);
      return server;
    },
    {
      legacy: "serve",
      onerror: resolved.onError,
      // Checked above to be a transport; the SDK's type spells out its messages, which this one leaves open.
      transport: new DepthBoundTransport(
        transport as unknown as Transport ?? new ServerStdioTransport(process.stdin, process.stdout),
      ),
    },
  );
  return {
    toolsChanged() {
      for (const server of servers) {
        server.sendToolListChanged().catch(() => {});
      }
    },
    close: () => handle.close(),
  };
}
