// How the MCP server tests reach the served tool set with the SDK's v2
// client: over stdio (the fixture process) and over Streamable HTTP (the
// fetch handler on a loopback port of this process).

import { McpClient, StdioClientTransport, StreamableHTTPClientTransport } from "./_client_deps.ts";
import { createMcpFetchHandler, type McpFetchHandlerOptions } from "../../../mcp_server.ts";
import { serverEnv } from "../_helpers.ts";
import { type ServedStats, servedTools } from "./fixtures/tools.ts";
import type { ToolSet } from "../../../mod.ts";

const STDIO_SERVER = new URL("./fixtures/stdio_server.ts", import.meta.url).pathname;
const ROOT = new URL("../../../", import.meta.url).pathname;

/** A v2 client, connected, and what closes everything the connection started. */
export interface Connected extends AsyncDisposable {
  readonly client: McpClient;
  /** The served tools' counters, when the server runs in this process. */
  readonly stats?: ServedStats;
  /** The HTTP endpoint, when served over HTTP. */
  readonly url?: URL;
}

/** Options of the v2 client the tests make. */
export type ClientMode = "auto" | "legacy";

function newClient(mode: ClientMode): McpClient {
  return new McpClient({ name: "tests", version: "1.0.0" }, {
    versionNegotiation: { mode },
    capabilities: { elicitation: { form: {} } },
  });
}

/** Spawns the stdio fixture and connects a v2 client to it. */
export async function connectStdio(mode: ClientMode = "auto"): Promise<Connected> {
  const client = newClient(mode);
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "--lock=tests/deno.lock", "--allow-env", "--allow-read", "--no-prompt", STDIO_SERVER],
      cwd: ROOT,
      env: { ...serverEnv(), PATH: Deno.env.get("PATH") ?? "" },
      stderr: "inherit",
    }),
  );
  return { client, [Symbol.asyncDispose]: () => client.close() };
}

/** Serves a tool set over HTTP on a loopback port. */
export function serveHttp(
  tools: ToolSet,
  options: McpFetchHandlerOptions = {},
): { url: URL; handler: ReturnType<typeof createMcpFetchHandler> } & AsyncDisposable {
  const handler = createMcpFetchHandler(tools, { name: "served", version: "1.0.0" }, options);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler.fetch);
  return {
    url: new URL(`http://127.0.0.1:${server.addr.port}/mcp`),
    handler,
    async [Symbol.asyncDispose]() {
      await handler.close();
      await server.shutdown();
    },
  };
}

/** Serves the fixture set over HTTP in this process and connects a v2 client to it. */
export async function connectHttp(mode: ClientMode = "auto", options: McpFetchHandlerOptions = {}): Promise<Connected> {
  const { tools, stats } = servedTools();
  const served = serveHttp(tools, options);
  const client = newClient(mode);
  await client.connect(new StreamableHTTPClientTransport(served.url));
  return {
    client,
    stats,
    url: served.url,
    async [Symbol.asyncDispose]() {
      await client.close();
      await served[Symbol.asyncDispose]();
    },
  };
}

/** The JSON-RPC headers a bare 2025-era POST carries. */
export const POST_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
} as const;

/** Posts one bare JSON-RPC request (2025-era, no session) and reads its answer, from JSON or an event stream. */
export async function postJsonRpc(
  url: URL,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; message: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...POST_HEADERS, ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const data = response.headers.get("content-type")?.startsWith("text/event-stream")
    ? text.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).pop() ?? "null"
    : text;
  return { status: response.status, message: JSON.parse(data) };
}
