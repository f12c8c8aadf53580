// The events a stream's reader has not read yet. A tool may report progress
// far faster than its reader reads (an MCP server's progress flood, a slow
// consumer), so the queue is bounded: a few progress events wait in a ring,
// and once it is full the newest progress replaces the last waiting one. The
// latest progress wins; the terminal is kept apart and never dropped.

import type { ProgressEvent, TerminalEvent, ToolEvent } from "../contract/events.ts";

/** How many unread progress events wait for a slow reader. */
export const PROGRESS_BUFFER = 8;

export class EventQueue {
  readonly #ring: (ProgressEvent | undefined)[] = new Array(PROGRESS_BUFFER);
  #head = 0;
  #size = 0;
  #terminal: TerminalEvent | undefined;
  #wake: (() => void) | undefined;

  /** Whether the terminal has arrived (it may still be unread). */
  get finished(): boolean {
    return this.#terminal !== undefined;
  }

  /** Queues a progress event; when the ring is full it replaces the newest waiting one. */
  progress(event: ProgressEvent): void {
    if (this.#size === PROGRESS_BUFFER) {
      this.#ring[(this.#head + PROGRESS_BUFFER - 1) % PROGRESS_BUFFER] = event;
    } else {
      this.#ring[(this.#head + this.#size) % PROGRESS_BUFFER] = event;
      this.#size++;
    }
    this.#wakeReader();
  }

  /** Queues the terminal, read after every waiting progress event. */
  finish(terminal: TerminalEvent): void {
    this.#terminal = terminal;
    this.#wakeReader();
  }

  /** Takes the next event, or `undefined` when none is waiting. */
  take(): ToolEvent | undefined {
    if (this.#size === 0) return this.#terminal;
    const event = this.#ring[this.#head]!;
    this.#ring[this.#head] = undefined;
    this.#head = (this.#head + 1) % PROGRESS_BUFFER;
    this.#size--;
    return event;
  }

  /** Resolves when an event arrives. */
  next(): Promise<void> {
    return new Promise((resolve) => this.#wake = resolve);
  }

  #wakeReader(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
