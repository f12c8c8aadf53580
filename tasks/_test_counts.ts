// Reads test counts from the closing lines the test task's steps print:
// `deno test`'s "ok | 12 passed | 0 failed (1s)" (with "(3 steps)" after
// the passed count when tests have steps) and the runtime conformance's
// "node: 16 passed, 0 failed".

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
