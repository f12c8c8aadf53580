import assert from "node:assert/strict";
import { closingLine, countsOf } from "../../tasks/_test_counts.ts";

Deno.test("countsOf() reads deno test's closing lines, with steps and colours", () => {
  assert.deepEqual(countsOf("ok | 406 passed | 0 failed (6s)"), { passed: 406, failed: 0 });
  assert.deepEqual(countsOf("ok | 57 passed (20 steps) | 0 failed (20s)"), { passed: 57, failed: 0 });
  assert.deepEqual(countsOf("\x1b[0m\x1b[31mFAILED\x1b[0m | 4 passed | 1 failed \x1b[0m(1s)"), {
    passed: 4,
    failed: 1,
  });
});

Deno.test("countsOf() reads a runtime's closing line and nothing else", () => {
  assert.deepEqual(countsOf("edge-runtime: 16 passed, 0 failed"), { passed: 16, failed: 0 });
  assert.equal(countsOf("tests: 3 passed, 0 failed"), undefined, "the task's own total is not a step's count");
  assert.equal(countsOf("steps: 13 passed, 0 failed"), undefined);
  assert.equal(countsOf("held    RetryPolicy retries a failed read with backoff"), undefined);
  assert.equal(countsOf("running 4 tests from ./tests/mcp/everything_test.ts"), undefined);
});

Deno.test("closingLine() writes the task's total in deno test's closing form, which countsOf() reads back", () => {
  assert.equal(closingLine(true, 1197, 0, 363_400), "ok | 1197 passed | 0 failed (6m 3s)");
  assert.equal(closingLine(false, 1190, 7, 42_900), "FAILED | 1190 passed | 7 failed (42s)");
  assert.equal(closingLine(false, 0, 1, 250.4), "FAILED | 0 passed | 1 failed (250ms)");
  assert.deepEqual(countsOf(closingLine(true, 1197, 0, 363_400)), { passed: 1197, failed: 0 });
});
