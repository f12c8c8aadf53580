// Reads test counts from the closing lines the test task's steps print:
// `deno test`'s "ok | 12 passed | 0 failed (1s)" (with "(3 steps)" after
// the passed count when tests have steps) and the runtime conformance's
// "node: 16 passed, 0 failed". Restates the first form as a plain count,
// and writes the task's own total as one.
//
// Why restate: a log reader that knows Go's test runner takes a line that
// starts with "ok" and a space for a package line, and a package line with
// no test run under it for a run that executed no test.

/** Passed and failed tests, as a step reports them. */
export interface TestCounts {
  readonly passed: number;
  readonly failed: number;
}

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

/**
 * A line of a step's output without its colours.
 *
 * @param line The line, colours and all.
 * @returns The line's text alone.
 */
export function uncoloured(line: string): string {
  return line.replace(ANSI, "");
}
const DENO_TEST = /^(?:ok|FAILED) \| (\d+) passed(?: \((\d+ steps?)\))? \| (\d+) failed\b(?: \((.*)\))?/;
const RUNTIME = /^(?!tests:|steps:)[a-z][a-z-]*: (\d+) passed, (\d+) failed$/;

/**
 * Reads the counts a closing line reports.
 *
 * @param line One line of a step's output, colours and all.
 * @returns The counts, or `undefined` for any other line.
 */
export function countsOf(line: string): TestCounts | undefined {
  const plain = uncoloured(line).trim();
  const denoTest = DENO_TEST.exec(plain);
  if (denoTest) return { passed: Number(denoTest[1]), failed: Number(denoTest[3]) };
  const runtime = RUNTIME.exec(plain);
  return runtime ? { passed: Number(runtime[1]), failed: Number(runtime[2]) } : undefined;
}

/**
 * Restates `deno test`'s closing line as a plain count, keeping its steps and time.
 *
 * @param line One line of a step's output, colours and all.
 * @returns "57 passed, 0 failed (20 steps, 20s)" for "ok | 57 passed (20 steps) | 0 failed (20s)"; any other
 * line unchanged.
 */
export function restated(line: string): string {
  const match = DENO_TEST.exec(uncoloured(line).trim());
  if (!match) return line;
  const [, passed, steps, failed, took] = match;
  const notes = [steps, took].filter(Boolean).join(", ");
  return `${passed} passed, ${failed} failed${notes ? ` (${notes})` : ""}`;
}

/**
 * Writes the task's total as the plain closing count that ends its output.
 *
 * @param passed Tests passed, over every step.
 * @param failed Tests failed, over every step (a red step that reported none counts as one).
 * @returns One line, such as "1197 passed, 0 failed".
 */
export function closingLine(passed: number, failed: number): string {
  return `${passed} passed, ${failed} failed`;
}

/**
 * Writes how long the task took, as `deno test` does.
 *
 * @param milliseconds The task's time.
 * @returns "250ms", "42s" or "6m 3s".
 */
export function duration(milliseconds: number): string {
  const seconds = Math.floor(milliseconds / 1000);
  if (seconds === 0) return `${Math.round(milliseconds)}ms`;
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}
