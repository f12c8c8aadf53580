// Shared by the MCP tests: how to start the servers they talk to, how to
// prove that no process of theirs is left behind, a fetch that serves a
// stream as given, and a server written message by message.

import { spawn } from "node:child_process";
import process from "node:process";
import { InMemoryTransport, type JSONRPCMessage } from "@modelcontextprotocol/client";
import { connectMcpServer, type McpConnectionOptions, type McpServerConnection } from "../../mcp.ts";

/** The reference server, pinned. */
export const EVERYTHING = "@modelcontextprotocol/server-everything@2026.8.31";

const FIXTURE = new URL("./fixtures/scripted_server.ts", import.meta.url).pathname;
const HTTP_FIXTURE = new URL("./fixtures/http_server.ts", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;

/** The lock every test process runs with, spawned servers too: the root lock records the runtime packages alone. */
export const TEST_LOCK: string = `--lock=${new URL("../deno.lock", import.meta.url).pathname}`;

/** What a spawned server needs beyond the safe base environment. */
export function serverEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ["DENO_DIR", "NPM_CONFIG_CACHE", "npm_config_cache", "XDG_CACHE_HOME"]) {
    const value = Deno.env.get(key);
    if (value !== undefined) env[key] = value;
  }
  return env;
}

/** Connects to the scripted fixture server running the given script. */
export function connectFixture(
  script: string,
  options: Partial<McpConnectionOptions> = {},
): Promise<McpServerConnection> {
  return connectMcpServer({
    name: "fixture",
    command: Deno.execPath(),
    args: ["run", TEST_LOCK, "--allow-all", "--no-prompt", FIXTURE, script],
    cwd: ROOT,
    env: serverEnv(),
    ...options,
  });
}

/** Connects to server-everything over stdio, spawned through npx. */
export function connectEverythingStdio(options: Partial<McpConnectionOptions> = {}): Promise<McpServerConnection> {
  return connectMcpServer({
    name: "everything",
    command: "npx",
    args: ["-y", EVERYTHING, "stdio"],
    env: serverEnv(),
    connectTimeoutMs: 60_000,
    ...options,
  });
}

/** A loopback port nothing listens on right now. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** A server process the test started itself, in its own process group. */
export interface StartedServer extends AsyncDisposable {
  readonly url: string;
  readonly pgid: number;
  stop(): Promise<void>;
}

/** Starts a server in its own process group and waits until its output tells the port it listens on. */
export async function startListeningServer(
  command: string,
  args: string[],
  env: Record<string, string | undefined>,
  portIn: (output: string) => number | undefined,
): Promise<StartedServer> {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(" ")} did not listen in time: ${output}`)), 60_000);
    const read = (chunk: Uint8Array) => {
      output += new TextDecoder().decode(chunk);
      const port = portIn(output);
      if (port !== undefined) {
        clearTimeout(timer);
        resolve(port);
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  const pgid = child.pid!;
  const stop = async () => {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // Already gone.
    }
    await exited;
    child.stdout!.destroy();
    child.stderr!.destroy();
  };
  return { url: `http://127.0.0.1:${port}/mcp`, pgid, stop, [Symbol.asyncDispose]: stop };
}

/** Starts server-everything's Streamable HTTP transport on a loopback port and waits until it listens. */
export function startEverythingHttp(): Promise<StartedServer> {
  const port = freePort();
  return startListeningServer(
    "npx",
    ["-y", EVERYTHING, "streamableHttp"],
    { ...process.env, PORT: String(port) },
    (output) => output.includes(`port ${port}`) ? port : undefined,
  );
}

/** Starts the Streamable HTTP fixture server with the given script on a loopback port. */
export function startHttpFixture(script: string): Promise<StartedServer> {
  return startListeningServer(
    Deno.execPath(),
    ["run", TEST_LOCK, "--allow-net=127.0.0.1", "--no-prompt", HTTP_FIXTURE, script],
    { ...process.env, ...serverEnv() },
    (output) => {
      const port = /listening on port (\d+)/.exec(output)?.[1];
      return port === undefined ? undefined : Number(port);
    },
  );
}

/** The process ids in a process group, from ps. */
export async function groupMembers(pgid: number): Promise<number[]> {
  const { stdout } = await new Deno.Command("ps", { args: ["-eo", "pid=,pgid=,stat="], stdout: "piped" }).output();
  return new TextDecoder().decode(stdout).split("\n").flatMap((line) => {
    const [pid, group, stat] = line.trim().split(/\s+/);
    // A zombie is already dead; only its parent's wait is missing.
    return Number(group) === pgid && !stat?.startsWith("Z") ? [Number(pid)] : [];
  });
}

/** Waits (up to 3 s) until no process of the group is left, and tells what is left. */
export async function survivors(pgid: number): Promise<number[]> {
  let members = await groupMembers(pgid);
  for (let i = 0; i < 30 && members.length > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    members = await groupMembers(pgid);
  }
  return members;
}

/** The live child processes of this test process (ps itself aside), from ps. */
export async function livingChildren(): Promise<number[]> {
  const { stdout } = await new Deno.Command("ps", { args: ["-eo", "pid=,ppid=,stat=,comm="], stdout: "piped" })
    .output();
  return new TextDecoder().decode(stdout).split("\n").flatMap((line) => {
    const [pid, ppid, stat, comm] = line.trim().split(/\s+/);
    return Number(ppid) === Deno.pid && !stat?.startsWith("Z") && comm !== "ps" ? [Number(pid)] : [];
  });
}

/**
 * A fetch that answers every request with a fresh SSE body of the given chunks, as a server would send them.
 *
 * @param chunks The body's bytes, cut as they are to arrive.
 * @param contentType The body's type: an SSE stream unless given.
 * @returns The fetch.
 */
export function servingSse(
  chunks: readonly Uint8Array[],
  contentType: string = "text/event-stream",
): typeof fetch {
  return () =>
    Promise.resolve(
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
            controller.close();
          },
        }),
        { headers: { "content-type": contentType } },
      ),
    );
}

/** A JSON-RPC message as a raw server reads it. */
export interface RawMessage {
  readonly id?: string | number;
  readonly method?: string;
  // deno-lint-ignore no-explicit-any
  readonly params?: any;
}

/** A 2025-era server in this process that answers message by message, to stage what a real server rarely does. */
export interface RawServer {
  /** The client's end of the pair, for `connectMcpServer({ transport })`. */
  readonly transport: InMemoryTransport;
  /** Sends a message to the client (`jsonrpc` is added). */
  send(message: Record<string, unknown>): void;
}

/**
 * Starts a raw server that answers the era probe and initialize itself, with tools that announce list changes,
 * and hands every other message to `on`.
 */
export async function rawServer(on: (message: RawMessage, server: RawServer) => void): Promise<RawServer> {
  const [mine, theirs] = InMemoryTransport.createLinkedPair();
  const server: RawServer = {
    transport: mine,
    send: (message) => void theirs.send({ jsonrpc: "2.0", ...message } as JSONRPCMessage),
  };
  theirs.onmessage = (message: RawMessage) => {
    if (message.method === "server/discover") {
      return server.send({ id: message.id, error: { code: -32601, message: "Method not found" } });
    }
    if (message.method === "initialize") {
      return server.send({
        id: message.id,
        result: {
          protocolVersion: "2025-06-18",
          capabilities: { tools: { listChanged: true } },
          serverInfo: { name: "raw", version: "1.0.0" },
        },
      });
    }
    if (message.method !== "notifications/initialized") on(message, server);
  };
  await theirs.start();
  return server;
}

/** A tool entry of a tools/list answer. */
export function rawTool(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, description: `The ${name} tool.`, inputSchema: { type: "object" }, ...extra };
}
