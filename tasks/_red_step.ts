// Keeps what a step printed that says why it went red, to restate beside
// the summary: a long log is often read from its end only, and the end of a
// red step's output names its failed tests but not what failed in them.

import { uncoloured } from "./_test_counts.ts";

const STACK_FRAME = /^\s+at /;

/** How many lines of a red step's output the summary restates at most. */
export const MAX_RED_LINES = 40;

/**
 * Collects a step's output lines and gives back what explains a failure:
 * `deno test`'s ERRORS section (each failed test, its error and the line it
 * failed on, stack frames left out) when the step printed one, else the
 * step's last lines (a format, lint or type error, or a runtime's report).
 */
export class RedStepLines {
  readonly #errors: string[] = [];
  readonly #tail: string[] = [];
  #inErrors = false;

  /**
   * Takes one line of the step's output.
   *
   * @param line The line, colours and all, without its line end.
   */
  add(line: string): void {
    const plain = uncoloured(line).trimEnd();
    const heading = plain.trim();
    if (heading === "ERRORS" || heading === "FAILURES") {
      this.#inErrors = heading === "ERRORS";
      return;
    }
    if (plain === "" || STACK_FRAME.test(plain)) return;
    if (this.#inErrors && this.#errors.length < MAX_RED_LINES) this.#errors.push(plain);
    this.#tail.push(plain);
    if (this.#tail.length > MAX_RED_LINES) this.#tail.shift();
  }

  /**
   * @returns The lines that explain the failure, at most {@linkcode MAX_RED_LINES}.
   */
  lines(): readonly string[] {
    return this.#errors.length > 0 ? [...this.#errors] : [...this.#tail];
  }
}
