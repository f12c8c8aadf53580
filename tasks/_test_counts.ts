// Reads test counts from the closing lines the test task's steps print:
// `deno test`'s "ok | 12 passed | 0 failed (1s)" (with "(3 steps)" after
// the passed count when tests have steps) and the runtime conformance's
// "node: 16 passed, 0 failed"; and writes the task's own total in the
// first of those forms.

/** Passed and failed tests, as a step reports them. */
export interface TestCounts {
  readonly passed: number;
  readonly failed: number;
}

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;
const DENO_TEST = /^(?:ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed\b/;
const RUNTIME = /^(?!tests:|steps:)[a-z][a-z-]*: (\d+) passed, (\d+) failed$/;

/**
 * Reads the counts a closing line reports.
 *
 * @param line One line of a step's output, colours and all.
 * @returns The counts, or `undefined` for any other line.
 */
export function countsOf(line: string): TestCounts | undefined {
  const plain = line.replace(ANSI, "").trim();
  const match = DENO_TEST.exec(plain) ?? RUNTIME.exec(plain);
  return match ? { passed: Number(match[1]), failed: Number(match[2]) } : undefined;
}

/**
 * Writes the task's total in `deno test`'s closing form, so that whatever reads the end of the output as a
 * Deno test run reads the whole task's count.
 *
 * @param ok Whether every step was green.
 * @param passed Tests passed, over every step.
 * @param failed Tests failed, over every step (a red step that reported none counts as one).
 * @param milliseconds How long the task took.
 * @returns One line, such as "ok | 1197 passed | 0 failed (6m 3s)".
 */
export function closingLine(ok: boolean, passed: number, failed: number, milliseconds: number): string {
  const seconds = Math.floor(milliseconds / 1000);
  const took = seconds === 0
    ? `${Math.round(milliseconds)}ms`
    : seconds < 60
    ? `${seconds}s`
    : `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
  return `${ok ? "ok" : "FAILED"} | ${passed} passed | ${failed} failed (${took})`;
}
