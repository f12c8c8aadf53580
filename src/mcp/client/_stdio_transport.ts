// An MCP transport over a child process's stdin and stdout, for Deno, Node
// and Bun (through node:child_process). Compared with the SDK's own: the
// server runs in its own process group so a wrapper such as `npx` takes its
// children with it; stderr is kept (bounded) instead of mixed into the
// host's output; a line that is not JSON-RPC is reported and skipped; a
// line over the message limit fails the request it answers, and ends the
// connection, saying so, only when it cannot be told apart; lines are
// handed on a turn's share at a time, stdout paused while any wait, so that a
// flood of them cannot hold the host; and close() ends stdin, then signals
// the group after a short grace period rather than waiting seconds.

import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import { type JSONRPCMessage, parseJSONRPCMessage, type Transport } from "@modelcontextprotocol/client";
import { LineReader } from "../_line_reader.ts";
import { PIECE_CHARS } from "../_paced_json.ts";
import { readMessage, UnreadRequest } from "./_paced_message.ts";
import { headOfLong, type LongMessage, opensObject, toldAtEnd, toldByHead } from "./_long_message.ts";
import type { TopLevel } from "../_paced_json.ts";
import { slices } from "../../core/common/_slices.ts";
import { PacedLines } from "../_paced_lines.ts";

/** How to start a stdio MCP server. */
export interface StdioServerParameters {
  readonly command: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** How long close() waits for the server to exit after stdin ends, before signalling it. */
  readonly closeGraceMs: number;
  /** The most stderr kept, in characters (the tail is kept). */
  readonly stderrLimit: number;
  /** The longest line accepted on stdout, in bytes. */
  readonly maxMessageBytes: number;
}

const EXIT_DRAIN_MS = 200;

/**
 * The most messages waiting for the server to read its stdin before the host's answers to its requests are refused:
 * a server that floods requests and reads none of the answers would otherwise queue them without bound, and have
 * their callbacks run in one stretch once it reads.
 */
export const MAX_WAITING_WRITES = 1_024;

// The environment a server gets beneath the host's own `env`: enough to find
// binaries, a home, its package caches, the network's proxies and
// certificates, and Windows' system folders; no credentials by default.
const INHERITED_ENV = [
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
  "TMPDIR",
  "LANG",
  "DENO_DIR",
  "DENO_CERT",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "SystemRoot",
  "APPDATA",
  "LOCALAPPDATA",
  "USERPROFILE",
  "TEMP",
  "TMP",
];
const INHERITED_PREFIXES = ["NPM_CONFIG_", "npm_config_", "XDG_"];

function inherited(key: string): boolean {
  return INHERITED_ENV.includes(key) || INHERITED_PREFIXES.some((prefix) => key.startsWith(prefix));
}

function defaultEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    // A value starting with "()" is an exported shell function, which a child must not run.
    if (value !== undefined && inherited(key) && !value.startsWith("()")) env[key] = value;
  }
  return env;
}

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #params: StdioServerParameters;
  #child: ChildProcess | undefined;
  #exited: Promise<void> | undefined;
  #stdout: LineReader;
  #stderr = "";
  #errDecoder = new TextDecoder();
  #closed = false;
  /** Set once the server is spawned: its stdout's lines, handed on in order and a turn's share at a time. */
  #paced: PacedLines | undefined;
  readonly #pause = slices();
  #fault: string | undefined;
  #exit: string | undefined;
  /** Messages written to stdin that the server has not read yet. */
  #waitingWrites = 0;
  /** What the head of the long line being skipped said, and whether that told what the line is. */
  #longHead: { readonly start: TopLevel; readonly told: boolean } | undefined;
  /** Why it could not start, when it could not. */
  spawnError: (Error & { code?: string }) | undefined;

  constructor(params: StdioServerParameters) {
    this.#params = params;
    this.#stdout = new LineReader(params.maxMessageBytes, (line) => this.#line(line), {
      starts: (head) => this.#longStarts(head),
      ends: (head, tail) => this.#longEnds(head, tail),
      stopped: () => this.#tooLong(),
    });
  }

  /** Ends the connection over a line past the limit that cannot be told apart. */
  #tooLong(): void {
    if (this.#fault !== undefined) return;
    this.#fault = `sent a line longer than ${this.#params.maxMessageBytes} bytes (the maxMessageBytes limit)`;
    this.onerror?.(new Error(`The MCP server ${this.#fault}`));
    void this.close();
  }

  /**
   * A line just passed the limit: it is skipped, and told apart by its head and tail (see _long_message.ts), or the
   * connection ends. A head that names the line's id tells at once, so its call fails now, not once the skip reaches
   * the line's end.
   */
  #longStarts(head: string): boolean {
    // Only an object can say which message it is; anything else that long ends the connection at once.
    if (!opensObject(head)) return false;
    this.#paced!.later(async () => {
      const start = await headOfLong(head, this.#pause);
      const told = toldByHead(head, start, this.#params.maxMessageBytes);
      this.#longHead = { start, told: told !== undefined };
      if (told !== undefined) this.#insteadOfLong(told);
    });
    return true;
  }

  /** The end of the long line being skipped: told apart by its tail too, unless its head told already. */
  #longEnds(head: string, tail: string): void {
    this.#paced!.later(() => {
      const { start, told } = this.#longHead!;
      this.#longHead = undefined;
      if (!told) this.#insteadOfLong(toldAtEnd(head, start, tail, this.#params.maxMessageBytes));
    });
  }

  /** Does what a long line's kind asks in its place. */
  #insteadOfLong(long: LongMessage): void {
    if (long.kind === "unknown") return this.#tooLong();
    if (long.kind === "answer") return this.#deliver(long.standIn);
    if (long.kind === "request") this.send(long.reply).catch(() => {});
    this.onerror?.(new Error(long.note));
  }

  /**
   * How the server broke off, once it has: "exited with code 1", "was killed
   * by SIGKILL", or what it sent that ended the connection.
   */
  get exit(): string | undefined {
    return this.#fault ?? this.#exit;
  }

  /** The tail of what the server wrote to stderr. */
  get stderr(): string {
    return this.#stderr;
  }

  /** The server's process id while it runs. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    if (this.#child) return Promise.reject(new Error("Cannot start the stdio transport as it already started"));
    const { command, args = [], env, cwd } = this.#params;
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(command, [...args], {
          env: { ...defaultEnv(), ...env },
          cwd,
          stdio: ["pipe", "pipe", "pipe"],
          shell: false,
          detached: process.platform !== "win32",
          windowsHide: true,
        });
      } catch (error) {
        this.spawnError = error as Error;
        reject(error);
        return;
      }
      this.#child = child;
      const paced = new PacedLines(child.stdout!, (bytes) => this.#stdout.push(bytes), () => this.#closed);
      this.#paced = paced;
      this.#exited = new Promise((done) => {
        let drain: ReturnType<typeof setTimeout> | undefined;
        // Ends once the lines read before it are handed on.
        const end = () =>
          paced.settled(() => {
            clearTimeout(drain);
            this.#finish();
            done();
          });
        child.once("exit", (code, signal) => {
          this.#exit ??= signal ? `was killed by ${signal}` : `exited with code ${code}`;
          // "close" waits for stdout to drain, which a leftover grandchild
          // holding the pipe can delay for ever: a crash is reported soon
          // anyway, counted from when the lines read wait no more, since what
          // the pipe held while they waited is read only then.
          paced.settled(() => drain = setTimeout(end, EXIT_DRAIN_MS));
        });
        child.once("close", end);
      });
      child.once("error", (error) => {
        this.spawnError ??= error;
        reject(error);
        this.#finish();
      });
      child.once("spawn", () => resolve());
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Uint8Array) => paced.read(chunk));
      child.stderr?.on("data", (chunk: Uint8Array) => {
        const text = this.#stderr + this.#errDecoder.decode(chunk, { stream: true });
        this.#stderr = text.length > this.#params.stderrLimit ? text.slice(-this.#params.stderrLimit) : text;
      });
    });
  }

  #line(line: string): void {
    // A short line with none waiting before it, within the turn's share, is read and delivered at once.
    const short = line.length <= PIECE_CHARS;
    if (short && this.#paced!.now()) return this.#readShort(line);
    // A long line is read in paced pieces; the lines after it wait their turn, so that order is kept.
    this.#paced!.later(() => short ? this.#readShort(line) : this.#readLong(line));
  }

  #readShort(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(JSON.parse(line));
    } catch {
      return this.#skip(line);
    }
    this.#deliver(message);
  }

  async #readLong(line: string): Promise<void> {
    let message: JSONRPCMessage;
    try {
      message = await readMessage(line, this.#pause);
    } catch (error) {
      // A request refused so is answered, rather than left to wait for its timeout.
      if (error instanceof UnreadRequest) this.send(error.answer).catch(() => {});
      return this.#skip(line);
    }
    this.#deliver(message);
  }

  #skip(line: string): void {
    this.onerror?.(new Error(`Skipped a line on stdout that is not JSON-RPC: ${line.slice(0, 200)}`));
  }

  #deliver(message: JSONRPCMessage): void {
    if (this.#closed) return;
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (this.#closed || !stdin || stdin.destroyed) {
      return Promise.reject(new Error("Cannot send to the MCP server as its process is not running"));
    }
    // The host's own requests are bounded by the host, each by its timeout; answers to the server are not.
    if (this.#waitingWrites >= MAX_WAITING_WRITES && !("method" in message)) {
      return Promise.reject(
        new Error(
          `Cannot answer the MCP server's request ${
            JSON.stringify(message.id)
          } as it has not read the host's last ${this.#waitingWrites} messages: current bound is ${MAX_WAITING_WRITES}`,
        ),
      );
    }
    this.#waitingWrites++;
    return new Promise((resolve, reject) => {
      stdin.write(`${JSON.stringify(message)}\n`, (error) => {
        this.#waitingWrites--;
        error ? reject(error) : resolve();
      });
    });
  }

  #signal(signal: NodeJS.Signals): void {
    const pid = this.#child?.pid;
    if (pid === undefined) return;
    try {
      // A negative pid signals the whole group: the server and what it spawned.
      process.kill(process.platform === "win32" ? pid : -pid, signal);
    } catch {
      // Already gone.
    }
  }

  async close(): Promise<void> {
    const child = this.#child;
    const exited = this.#exited;
    if (!child || !exited) return this.#finish();
    const wait = (ms: number) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      return Promise.race([
        exited.then(() => true),
        new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(false), ms)),
      ]).finally(() => clearTimeout(timer));
    };
    if (this.#exit === undefined) {
      try {
        child.stdin?.end();
      } catch {
        // The pipe may already be broken.
      }
      if (!await wait(this.#params.closeGraceMs)) {
        this.#signal("SIGTERM");
        if (!await wait(this.#params.closeGraceMs)) {
          this.#signal("SIGKILL");
          await wait(this.#params.closeGraceMs);
        }
      }
    }
    // Children the server left in its group go too, even when it exited itself.
    this.#signal("SIGKILL");
    child.stdout?.destroy();
    child.stderr?.destroy();
    this.#finish();
  }
}
