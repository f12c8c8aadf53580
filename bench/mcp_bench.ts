// Case 7: the MCP client. One call of server-everything's `echo` through
// this module's ToolSet (validation, dispatch, result checks) against the
// bare SDK v2 client's callTool, over stdio and Streamable HTTP (a 2025
// server, the same build for both contenders), and over HTTP to a stateless
// 2026-07-28 server; then connecting to that stateless server (probe,
// discover, tool list) against the bare client's connect and listTools.
// Side by side in one process: a long warm-up, then paired rounds whose
// order alternates (see compare() in _harness.ts); the ratio is the median
// of the per-round ratios.
//
// Every server process this case starts is killed when it ends.

import process from "node:process";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ToolSet } from "../mod.ts";
import { connectMcpServer, type McpServerConnection } from "../mcp.ts";
import { check, compare, type Mode, ratioRows, type Row } from "./_harness.ts";

const EVERYTHING = "@modelcontextprotocol/server-everything@2026.8.31";
const MODERN = new URL("../tests/mcp/fixtures/modern_server.ts", import.meta.url).pathname;
const ECHO = { message: "hello" };
const BARE = "bare SDK v2 Client.callTool";
const OURS = "salvor ToolSet.call (MCP tool)";
const BARE_CONNECT = "bare SDK v2 Client.connect + listTools";
const OURS_CONNECT = "salvor connectMcpServer";
const TARGET = (ratio: number) => ({ text: "≤ 1.15× bare SDK", met: ratio <= 1.15 });

/** The server's entry script, installed once through npx, so each server is one node process. */
async function serverScript(): Promise<string> {
  const { stdout, code } = await new Deno.Command("npx", {
    args: ["-y", "-p", EVERYTHING, "which", "mcp-server-everything"],
    stdout: "piped",
    stderr: "null",
  }).output();
  check(code === 0, `Cannot find ${EVERYTHING} through npx`);
  return await Deno.realPath(new TextDecoder().decode(stdout).trim());
}

/** Starts a server on a loopback port and waits for its output to say it listens. */
async function listening(command: string, args: string[], env: Record<string, string>, ready: RegExp) {
  const child = new Deno.Command(command, { args, env, stdin: "null", stdout: "piped", stderr: "piped" }).spawn();
  let seen = "";
  const decoder = new TextDecoder();
  let port: string | undefined;
  const readers = [child.stdout.getReader(), child.stderr.getReader()];
  const read = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      seen += decoder.decode(value, { stream: true });
      port ??= ready.exec(seen)?.[1];
    }
  };
  const reading = readers.map(read);
  for (let i = 0; i < 600 && port === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  check(port !== undefined, `${args.join(" ")} did not listen: ${seen}`);
  const stop = async () => {
    child.kill("SIGKILL");
    await child.status;
    await Promise.allSettled(reading);
  };
  return { url: `http://127.0.0.1:${port}/mcp`, stop };
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** A bare v2 client, negotiating and following tool list changes as ours does. */
function bareClient(): Client {
  return new Client({ name: "bare", version: "1.0.0" }, {
    versionNegotiation: { mode: "auto" },
    listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => {} } },
  });
}

function oursCall(tools: ToolSet): () => Promise<unknown> {
  let calls = 0;
  return async () => {
    const done = await tools.call({ id: `call_${calls++}`, name: "everything__echo", arguments: ECHO });
    check(done.type === "output", `echo failed: ${JSON.stringify(done)}`);
    return done;
  };
}

function bareCall(client: Client, name = "echo", args: Record<string, unknown> = ECHO): () => Promise<unknown> {
  return async () => {
    const result = await client.callTool({ name, arguments: args });
    check(!result.isError, `${name} failed`);
    return result;
  };
}

/** One round trip group: ours against the bare client, on an open connection each. */
async function callGroup(label: string, mode: Mode, ours: () => Promise<unknown>, bare: () => Promise<unknown>) {
  const contenders = [{ name: BARE, run: bare }, { name: OURS, run: ours }];
  // A long warm-up, alternating, before compare()'s own.
  for (let i = 0; i < (mode.smoke ? 3 : 2_000); i++) for (const contender of contenders) await contender.run();
  const stats = await compare(contenders, mode);
  return ratioRows(`7. MCP call, ${label}`, [BARE, OURS], stats, "ns", BARE, { [OURS]: TARGET });
}

/**
 * Runs case 7.
 *
 * @param mode Full or smoke.
 * @returns Rows for each transport's call and for connecting to a stateless server.
 */
export async function mcpCase(mode: Mode): Promise<Row[]> {
  const script = await serverScript();
  const rows: Row[] = [];
  const connections: (McpServerConnection | Client)[] = [];
  const stops: (() => Promise<void>)[] = [];
  try {
    // stdio, a 2025 server: one process for each contender.
    const ours = await connectMcpServer({ name: "everything", command: "node", args: [script, "stdio"] });
    connections.push(ours);
    const bare = bareClient();
    connections.push(bare);
    await bare.connect(new StdioClientTransport({ command: "node", args: [script, "stdio"], stderr: "ignore" }));
    rows.push(...await callGroup("stdio (2025 server)", mode, oursCall(ours.register(new ToolSet())), bareCall(bare)));

    // Streamable HTTP, the same 2025 server.
    const port = freePort();
    const everything = await listening("node", [script, "streamableHttp"], { PORT: String(port) }, /port (\d+)/);
    stops.push(everything.stop);
    const oursHttp = await connectMcpServer({ name: "everything", url: everything.url });
    connections.push(oursHttp);
    const bareHttp = bareClient();
    connections.push(bareHttp);
    await bareHttp.connect(new StreamableHTTPClientTransport(new URL(everything.url)));
    rows.push(
      ...await callGroup(
        "Streamable HTTP (2025 server)",
        mode,
        oursCall(oursHttp.register(new ToolSet())),
        bareCall(bareHttp),
      ),
    );

    // Streamable HTTP, a stateless 2026-07-28 server: calls, then connecting.
    const modern = await listening(
      Deno.execPath(),
      ["run", "--allow-net=127.0.0.1", "--allow-env", MODERN, "http"],
      {},
      /listening on port (\d+)/,
    );
    stops.push(modern.stop);
    const oursModern = await connectMcpServer({ name: "modern", url: modern.url });
    connections.push(oursModern);
    check(oursModern.protocolVersion === "2026-07-28", "the modern fixture did not speak 2026-07-28");
    const bareModern = bareClient();
    connections.push(bareModern);
    await bareModern.connect(new StreamableHTTPClientTransport(new URL(modern.url)));
    const modernTools = oursModern.register(new ToolSet());
    let calls = 0;
    const oursModernCall = async () => {
      const done = await modernTools.call({ id: `m${calls++}`, name: "modern__echo", arguments: { text: "hi" } });
      check(done.type === "output", `echo failed: ${JSON.stringify(done)}`);
      return done;
    };
    rows.push(
      ...await callGroup(
        "Streamable HTTP (2026-07-28 server)",
        mode,
        oursModernCall,
        bareCall(bareModern, "echo", { text: "hi" }),
      ),
    );

    const connectContenders = [
      {
        name: BARE_CONNECT,
        run: async () => {
          const client = bareClient();
          await client.connect(new StreamableHTTPClientTransport(new URL(modern.url)));
          await client.listTools();
          await client.close();
        },
      },
      {
        name: OURS_CONNECT,
        run: async () => {
          const connection = await connectMcpServer({ name: "modern", url: modern.url });
          await connection.close();
        },
      },
    ];
    const stats = await compare(connectContenders, mode);
    rows.push(
      ...ratioRows(
        "7. MCP connect, stateless 2026-07-28 server over HTTP",
        [BARE_CONNECT, OURS_CONNECT],
        stats,
        "ns",
        BARE_CONNECT,
      ),
    );
  } finally {
    for (const connection of connections) await connection.close().catch(() => {});
    for (const stop of stops) await stop();
    // Nothing a stdio server started may outlive the case.
    for (const connection of connections) {
      const pid = (connection as { pid?: number }).pid;
      if (typeof pid === "number") {
        try {
          process.kill(-pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
    }
  }
  return rows;
}
