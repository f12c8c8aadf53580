/**
 * Connecting to an MCP server: spawned over stdio, over Streamable HTTP,
 * or over a transport the host made.
 *
 * @module
 */

import { connectMcpServer as connectOverHttp, type McpHttpOptions } from "./connect_http.ts";
import {
  McpConnectionError,
  type McpConnectionOptions,
  type McpPrior,
  type McpServerConnection,
  type McpTransportOptions,
  openMcpConnection,
} from "./connection.ts";
import { StdioTransport } from "./_stdio_transport.ts";
import { DEFAULT_MAX_MESSAGE_BYTES, wholeOption } from "./_limits.ts";

/** Options for a server the host spawns and talks to over stdin and stdout. */
export interface McpStdioOptions extends McpConnectionOptions {
  /** The program to run, e.g. `npx` or `node`. It is run directly, never through a shell. */
  readonly command: string;
  /** Its arguments. */
  readonly args?: readonly string[];
  /**
   * Its environment, merged over what it inherits from the host. It
   * inherits only what a server needs to run, never the host's other
   * variables (which may hold credentials): `HOME`, `LOGNAME`, `PATH`,
   * `SHELL`, `TERM`, `USER`, `TMPDIR`, `LANG`; its package caches
   * (`DENO_DIR`, every `NPM_CONFIG_*` and `npm_config_*`, every `XDG_*`);
   * the network's proxies and certificates (`HTTP_PROXY`, `HTTPS_PROXY`,
   * `NO_PROXY` in either case, `NODE_EXTRA_CA_CERTS`, `SSL_CERT_FILE`,
   * `SSL_CERT_DIR`, `DENO_CERT`); and on Windows `SystemRoot`, `APPDATA`,
   * `LOCALAPPDATA`, `USERPROFILE`, `TEMP` and `TMP`.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Its working directory. */
  readonly cwd?: string;
  /** How long `close()` waits for the server to exit after its stdin closes, before signalling it. Default 500 ms. */
  readonly closeGraceMs?: number;
  /** The most of its stderr kept for diagnostics, in characters. Default 16 384. */
  readonly stderrLimit?: number;
}

/** Every way to reach an MCP server. */
export type McpServerOptions = McpStdioOptions | McpHttpOptions | McpTransportOptions;

const DEFAULT_CLOSE_GRACE_MS = 500;
const DEFAULT_STDERR_LIMIT = 16_384;

/**
 * Connects to an MCP server and lists every tool it has. With `command`
 * the server is spawned and spoken to over stdio (in its own process
 * group, stderr captured); with `url` over Streamable HTTP; with
 * `transport` over an SDK transport the host made.
 *
 * Under Deno, spawning a server takes `--allow-run --allow-env` (and
 * `--allow-read` when the command's path must be read); Streamable HTTP
 * takes `--allow-net`. A server that breaks a limit of
 * {@linkcode McpConnectionOptions} (`maxMessageBytes`, `maxTools`, ...) is
 * refused or cut, never allowed to exhaust the host.
 *
 * @param options The server's name, how to reach it, and how to treat its tools.
 * @returns The connection, with the server's tools ready to register.
 * @throws {McpConnectionError} When the command does not exist, the server
 * exits at start, does not answer `initialize` in time, or lists tools that
 * cannot be registered; the message names the server.
 * @throws {TypeError} On options that are not usable, such as an empty name.
 * @throws {RangeError} On a timeout or limit out of range.
 *
 * @example Spawn a server and call one of its tools
 * ```ts ignore
 * import { ToolSet } from "@salvor/tools";
 * import { connectMcpServer } from "@salvor/tools/mcp";
 *
 * await using everything = await connectMcpServer({
 *   name: "everything",
 *   command: "npx",
 *   args: ["-y", "@modelcontextprotocol/server-everything@2026.8.31", "stdio"],
 * });
 * const tools = everything.register(new ToolSet());
 * const done = await tools.call({ id: "1", name: "everything__echo", arguments: '{"message":"hi"}' });
 * ```
 *
 * @example A missing command is a clear error
 * ```ts
 * import { connectMcpServer, McpConnectionError } from "@salvor/tools/mcp";
 * import assert from "node:assert/strict";
 *
 * await assert.rejects(
 *   connectMcpServer({ name: "ghost", command: "salvor-no-such-command" }),
 *   (error) => error instanceof McpConnectionError && /"ghost".*not found/.test(error.message),
 * );
 * ```
 */
export function connectMcpServer(options: McpServerOptions): Promise<McpServerConnection> {
  if (!("command" in options) || options.command === undefined) return connectOverHttp(options as McpHttpOptions);
  const { name, command, args, env, cwd } = options;
  if (typeof command !== "string" || command === "") {
    return Promise.reject(
      new TypeError(
        `Cannot connect to MCP server "${name}" as its command must be a non-empty string: current value is ${
          JSON.stringify(command)
        }`,
      ),
    );
  }
  let spawn: () => StdioTransport;
  try {
    const params = {
      command,
      args,
      env,
      cwd,
      closeGraceMs: wholeOption(options.closeGraceMs, DEFAULT_CLOSE_GRACE_MS, "closeGraceMs", name, 0),
      stderrLimit: wholeOption(options.stderrLimit, DEFAULT_STDERR_LIMIT, "stderrLimit", name, 0),
      maxMessageBytes: wholeOption(options.maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES, "maxMessageBytes", name),
    };
    spawn = () => new StdioTransport(params);
  } catch (error) {
    return Promise.reject(error);
  }
  const open = (prior: McpPrior | undefined) => {
    const transport = spawn();
    return openMcpConnection(transport, prior === undefined ? options : { ...options, prior }, {
      startProblem: () => {
        const error = transport.spawnError;
        if (!error) return undefined;
        return error.code === "ENOENT"
          ? `its command "${command}" was not found`
          : `its command "${command}" could not start: ${error.message}`;
      },
      exitProblem: () => transport.exit,
      stderr: () => transport.stderr,
      pid: () => transport.pid,
    });
  };
  // The era probe runs on the server's own process, which is then kept for
  // the session: one spawn. A server that ends on a request it does not
  // know before initialize is a 2025 one, spawned again to skip the probe.
  return open(options.prior).catch((error: unknown) => {
    if (options.prior !== undefined || !closedDuringProbe(error)) throw error;
    return open({ kind: "legacy" });
  });
}

/** Whether connecting failed because the server went away when it got the era probe. */
function closedDuringProbe(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return error instanceof McpConnectionError && cause instanceof Error &&
    /closed during the server\/discover probe/.test(cause.message);
}
