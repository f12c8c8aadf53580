// Lines read from a stream (the stdio server's stdin, a stdio server's stdout
// on the client), handed on a turn's share at a time. A line costs 0.02–0.3
// ms in one stretch, reported as no message or taken by the SDK in promise
// turns that all run before the next task: one 64 KiB read of 1,500 pings
// held the loop for 0.3 s, one of 32,000 lines that are no message for
// 0.4–0.8 s. Past a turn's share, lines wait in order, among the steps queued
// with them (a long line's paced parse), and the stream is paused meanwhile:
// the pipe, not this process, holds what the other end sends.

/** The most lines handed on in one turn of the event loop. */
const LINES_A_TURN = 64;
/**
 * The most bytes split into lines in one turn: what a pipe hands over at once in Deno, Node and Bun. A larger chunk
 * is split a piece a turn: 4.5 MB of short lines took 0.1–0.2 s to split whole.
 */
const READ_BYTES = 64 * 1024;

/** A stream that can stop handing over chunks and go on: stdin, or a child process's stdout. */
export interface Pausable {
  pause(): unknown;
  resume(): unknown;
}

/** A line's work, or another step to take in its place among the lines. */
export type LineStep = () => void | Promise<void>;

/** Resolves in a later task, once the promise turns queued before it (the work on a message) have run. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Hands a stream's lines on in order, at most a turn's share in one turn, pausing the stream while any wait. */
export class PacedLines {
  readonly #source: Pausable;
  readonly #split: (bytes: Uint8Array) => void;
  readonly #closed: () => boolean;
  /** Steps queued and not yet taken, in order: behind a long line, or past a turn's share. */
  readonly #waiting: LineStep[] = [];
  /** What the stream handed over and is not yet split into lines, in order, after the steps waiting. */
  readonly #unread: Uint8Array[] = [];
  /** Whether what waits is being handed on; the stream is paused meanwhile. */
  #draining = false;
  /** Lines handed on since the event loop last had a turn. */
  #linesThisTurn = 0;
  /** What runs once what waits is handed on, in the order it was asked for. */
  #settled: (() => unknown)[] = [];

  /**
   * @param source The stream, paused while anything waits.
   * @param split Splits bytes into lines, each handed to {@linkcode now} or {@linkcode later} by its reader.
   * @param closed Whether the reading ended: what waits is then dropped.
   */
  constructor(source: Pausable, split: (bytes: Uint8Array) => void, closed: () => boolean) {
    this.#source = source;
    this.#split = split;
    this.#closed = closed;
  }

  /** Takes a chunk the stream read: split into lines now, or queued while anything waits or when it is large. */
  read(chunk: Uint8Array): void {
    if (!this.#draining && chunk.length <= READ_BYTES) return this.#split(chunk);
    this.#unread.push(chunk);
    this.#start();
  }

  /** Whether a line may be handed on at once, counting it if so: nothing waits, and the turn's share is not used. */
  now(): boolean {
    return !this.#draining && ++this.#linesThisTurn <= LINES_A_TURN;
  }

  /** Queues a step, taken after everything queued before it, a line's share of a turn. */
  later(step: LineStep): void {
    this.#waiting.push(step);
    this.#start();
  }

  /** Runs `then` once nothing waits: at once, or in a later task once what waits is handed on and the stream goes on. */
  settled(then: () => unknown): void {
    if (this.#draining) this.#settled.push(then);
    else then();
  }

  #start(): void {
    if (this.#draining) return;
    this.#draining = true;
    this.#source.pause();
    void this.#drain();
  }

  /** Takes what waits, in order, a turn's share of steps and a piece of bytes at a time; then reads on. */
  async #drain(): Promise<void> {
    while (!this.#closed()) {
      const step = this.#waiting.shift();
      if (step === undefined) {
        const bytes = this.#unread.shift();
        if (bytes === undefined) break;
        if (bytes.length > READ_BYTES) this.#unread.unshift(bytes.subarray(READ_BYTES));
        await nextTurn();
        this.#linesThisTurn = 0;
        // Its lines are the next to wait.
        this.#split(bytes.subarray(0, READ_BYTES));
        continue;
      }
      if (++this.#linesThisTurn > LINES_A_TURN) {
        await nextTurn();
        this.#linesThisTurn = 1;
      }
      // A short line's step is synchronous: no promise turn is spent on it.
      const taking = step();
      if (taking !== undefined) await taking;
    }
    this.#waiting.length = 0;
    this.#unread.length = 0;
    this.#draining = false;
    if (!this.#closed()) this.#source.resume();
    const settled = this.#settled;
    if (settled.length === 0) return;
    this.#settled = [];
    // As it would have run had nothing waited: after the work on the last lines, in a later task.
    await nextTurn();
    for (const then of settled) await then();
  }
}
