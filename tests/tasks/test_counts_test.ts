import assert from "node:assert/strict";
import { closingLine, countsOf, duration, restated } from "../../tasks/_test_counts.ts";

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

Deno.test("restated() writes deno test's closing line as a plain count that no line reader takes for an 'ok' package line", () => {
  assert.equal(restated("ok | 406 passed | 0 failed (6s)"), "406 passed, 0 failed (6s)");
  assert.equal(restated("ok | 57 passed (20 steps) | 0 failed (2m2s)"), "57 passed, 0 failed (20 steps, 2m2s)");
  assert.equal(restated("\x1b[0m\x1b[31mFAILED\x1b[0m | 4 passed | 1 failed \x1b[0m(1s)"), "4 passed, 1 failed (1s)");
  assert.equal(restated("ok | 3 passed | 0 failed"), "3 passed, 0 failed");
  assert.equal(restated("a test ... ok (2ms)"), "a test ... ok (2ms)", "any other line is left as it is");
});

Deno.test("closingLine() writes the task's total as a plain count alone on its line", () => {
  assert.equal(closingLine(1197, 0), "1197 passed, 0 failed");
  assert.equal(closingLine(0, 1), "0 passed, 1 failed");
  assert.match(closingLine(1197, 0), /^\d+ passed, \d+ failed$/);
});

Deno.test("duration() writes a time as deno test does", () => {
  assert.equal(duration(250.4), "250ms");
  assert.equal(duration(42_900), "42s");
  assert.equal(duration(363_400), "6m 3s");
});
