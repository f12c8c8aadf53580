import assert from "node:assert/strict";
import { MAX_RED_LINES, RedStepLines } from "../../tasks/_red_step.ts";

/** A red `deno test` run's output, as it prints it with colours off. */
const DENO_TEST_OUTPUT = `running 2 tests from ./tests/mcp/hostile_schema_test.ts
wide-schemas ... FAILED (3s)
------- output -------
wide-schemas: 4 tools, largest event-loop gap 61.2 ms
----- output end -----

 ERRORS 

wide-schemas => ./tests/mcp/hostile_schema_test.ts:28:6
error: AssertionError: the event loop was blocked for 61.2 ms
  assert.ok(gapMs < MAX_GAP_MS, \`the event loop was blocked for \${gapMs} ms\`);
         ^
    at file:///work/tests/mcp/hostile_schema_test.ts:34:10
    at eventLoopTick (ext:core/01_core.js:179:7)

 FAILURES 

wide-schemas => ./tests/mcp/hostile_schema_test.ts:28:6

FAILED | 1 passed | 1 failed (3s)

error: Test failed`;

Deno.test("RedStepLines keeps deno test's ERRORS section without its stack frames or blank lines", () => {
  const red = new RedStepLines();
  for (const line of DENO_TEST_OUTPUT.split("\n")) red.add(line);
  assert.deepEqual(red.lines(), [
    "wide-schemas => ./tests/mcp/hostile_schema_test.ts:28:6",
    "error: AssertionError: the event loop was blocked for 61.2 ms",
    "  assert.ok(gapMs < MAX_GAP_MS, `the event loop was blocked for ${gapMs} ms`);",
    "         ^",
  ]);
});

Deno.test("RedStepLines reads the ERRORS heading through colours", () => {
  const red = new RedStepLines();
  red.add("\x1b[0m\x1b[1m\x1b[37m\x1b[41m ERRORS \x1b[0m");
  red.add("\x1b[31merror\x1b[0m: boom");
  red.add("\x1b[0m\x1b[1m\x1b[37m\x1b[41m FAILURES \x1b[0m");
  red.add("a test => ./a_test.ts:1:6");
  assert.deepEqual(red.lines(), ["error: boom"]);
});

Deno.test("RedStepLines keeps a step's last lines when it printed no ERRORS section", () => {
  const red = new RedStepLines();
  for (let i = 0; i < MAX_RED_LINES + 10; i++) red.add(`line ${i}`);
  red.add("error: Found 1 not formatted file in 120 files");
  const lines = red.lines();
  assert.equal(lines.length, MAX_RED_LINES);
  assert.equal(lines.at(-1), "error: Found 1 not formatted file in 120 files");
  assert.equal(lines[0], "line 11");
});

Deno.test("RedStepLines keeps at most MAX_RED_LINES of a long ERRORS section", () => {
  const red = new RedStepLines();
  red.add(" ERRORS ");
  for (let i = 0; i < MAX_RED_LINES * 3; i++) red.add(`error: failure ${i}`);
  assert.equal(red.lines().length, MAX_RED_LINES);
  assert.equal(red.lines()[0], "error: failure 0");
});
