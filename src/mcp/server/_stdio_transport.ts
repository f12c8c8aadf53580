// The stdio server's transport: a message a line, read on stdin and written
// on stdout. The SDK's own copies the line read so far at every chunk, so a
// line's cost grew with its square: 10 MiB in 4 KiB reads took 80 s, and
// JSON.parse then read it in one stretch. Here a line is split in linear time
// (LineReader), one longer than a piece is parsed in paced pieces within the
// bounds a long message is held to, the lines after it waiting their turn, and
// one past the limit ends the connection, as the SDK's did, without being held.
// Lines are handed on a turn's share at a time, the server's work on them
// running before the next task, and stdin is paused while any wait: the pipe,
// not this process, holds what the client sends meanwhile.

import type { Readable, Writable } from "node:stream";
import {
  type JSONRPCMessage,
  parseJSONRPCMessage,
  serializeMessage,
  type Transport,
} from "@modelcontextprotocol/server";
import { LineReader } from "../_line_reader.ts";
import { unreadRefusal } from "./_message_depth.ts";
import { MESSAGE_BOUNDS, parsePaced, PIECE_CHARS, reasonOf, topLevelOf } from "../_paced_json.ts";
import { slices } from "../../core/common/_slices.ts";
import { PacedLines } from "../_paced_lines.ts";

/** The longest line read, in bytes: the bound of the SDK's stdio transport. */
const MAX_LINE_BYTES = 10 * 1024 * 1024;
/** The longest string id a refusal is sent to. */
const MAX_ID_CHARS = 4_096;

/**
 * Left on stdout by a closed transport, once however many close on it: a write failing late (the client gone) must
 * not end the process as unhandled, and a listener left by each would hold it and its server in memory.
 */
function ignoreLateError(): void {}

/** An MCP transport over a readable stream of lines in and a writable one out (stdin and stdout). */
export class ServerStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];

  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #lines: LineReader;
  readonly #slice = slices();
  /** Aborted on close, so that a long line's parse stops at its next pause. */
  readonly #closing = new AbortController();
  readonly #paced: PacedLines;
  #started = false;
  #closed = false;

  /**
   * @param stdin Where messages come from.
   * @param stdout Where messages go.
   * @param maxLineBytes The longest line read; a longer one ends the connection.
   */
  constructor(stdin: Readable, stdout: Writable, maxLineBytes: number = MAX_LINE_BYTES) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#lines = new LineReader(maxLineBytes, (line) => this.#line(line), {
      starts: () => false,
      ends: () => {},
      stopped: () => {
        this.onerror?.(new Error(`Cannot read the client's message as its line is over ${maxLineBytes} bytes`));
        void this.close();
      },
    });
    this.#paced = new PacedLines(stdin, (bytes) => this.#lines.push(bytes), () => this.#closed);
  }

  readonly #onData = (chunk: Uint8Array | string): void =>
    this.#paced.read(typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk);
  readonly #onError = (error: Error): void => this.onerror?.(error);
  // Closed once the lines read before the end are handed on.
  readonly #onEnd = (): void => this.#paced.settled(() => this.close());
  readonly #onStdoutError = (error: Error): void => {
    this.onerror?.(error);
    void this.close();
  };
  readonly #pause = (): Promise<void> => this.#slice(this.#closing.signal);

  start(): Promise<void> {
    if (this.#started) return Promise.reject(new Error("Cannot start the stdio transport as it already started"));
    this.#started = true;
    this.#stdin.on("data", this.#onData);
    this.#stdin.on("error", this.#onError);
    this.#stdin.on("end", this.#onEnd);
    this.#stdin.on("close", this.#onEnd);
    this.#stdout.on("error", this.#onStdoutError);
    if (this.#stdin.readableEnded || this.#stdin.destroyed) queueMicrotask(this.#onEnd);
    return Promise.resolve();
  }

  #line(line: string): void {
    // A short line with none waiting before it, within the turn's share, is read and delivered at once.
    const short = line.length <= PIECE_CHARS;
    if (short && this.#paced.now()) return this.#deliver(line, () => JSON.parse(line));
    this.#paced.later(() => short ? this.#deliver(line, () => JSON.parse(line)) : this.#readLong(line));
  }

  async #readLong(line: string): Promise<void> {
    let parsed: unknown;
    try {
      parsed = await parsePaced(line, this.#pause, MESSAGE_BOUNDS);
    } catch (error) {
      // Closed meanwhile: the parse was stopped, and nothing is to be read.
      if (this.#closed) return;
      this.#skip(line, error);
      if (error instanceof RangeError) await this.#refuse(line, error);
      return;
    }
    this.#deliver(line, () => parsed);
  }

  #deliver(line: string, parse: () => unknown): void {
    if (this.#closed) return;
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(parse());
    } catch (error) {
      return this.#skip(line, error);
    }
    this.onmessage?.(message);
  }

  /**
   * A long line past a bound on a message, refused as the fetch handler refuses such a body: a request it names is
   * answered -32600, and an answer it names reaches the server as that error, so that neither waits for a timeout.
   */
  async #refuse(line: string, error: RangeError): Promise<void> {
    // Paced without the close's stop (a scan of the line, short beside its parse): a close is checked after it.
    const { id, isRequest } = await topLevelOf(line, this.#slice, MAX_ID_CHARS);
    if (id === undefined || this.#closed) return;
    const refusal = unreadRefusal(id, error);
    // A client gone before the refusal is sent needs none.
    if (isRequest) this.send(refusal).catch(() => {});
    else this.onmessage?.(refusal);
  }

  #skip(line: string, error: unknown): void {
    const start = JSON.stringify(line.slice(0, 200));
    this.onerror?.(
      new Error(`Cannot read a line on stdin as it is no JSON-RPC message (${reasonOf(error)}): it starts ${start}`),
    );
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("Cannot send to the MCP client as the connection is closed"));
    return new Promise((resolve, reject) => {
      this.#stdout.write(serializeMessage(message), (error) => error ? reject(error) : resolve());
    });
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#closing.abort();
    this.#stdin.off("data", this.#onData);
    this.#stdin.off("error", this.#onError);
    this.#stdin.off("end", this.#onEnd);
    this.#stdin.off("close", this.#onEnd);
    // Let stdin go, so that a process with nothing else to do can exit.
    if (this.#stdin.listenerCount("data") === 0) this.#stdin.pause();
    this.#stdout.off("error", this.#onStdoutError);
    if (!this.#stdout.listeners("error").includes(ignoreLateError)) this.#stdout.on("error", ignoreLateError);
    this.onclose?.();
    return Promise.resolve();
  }
}
