// The compiled validator's closures load apart from the core, the first time
// it compiles a schema; the fallback validator, the format scanners and
// re2js, the first time a schema needs them; the batch runner and the seal's work,
// the first time a batch runs or a record is sealed or verified. Each case
// runs in a fresh process, where they have not loaded yet, so the wait is
// real: a call, and a resume whose record's schema needs them, are answered
// once they have loaded, never refused or accepted before.

import assert from "node:assert/strict";
import { runFixture } from "./_fixture_process.ts";

const run = async (mode: string, input?: string): Promise<unknown> =>
  JSON.parse(await runFixture("loaded_apart_process.ts", mode, input));

Deno.test("the core loads the compiled validator's closures for its first raw JSON Schema, not for Valibot tools", async () => {
  assert.deepEqual(await run("closures"), {
    typed: ["invalid_input", "output"],
    loadedAtFirst: false,
    firstParse: "waits",
    firstParsed: { ok: true, value: { n: 1 } },
    calls: ["invalid_input", "output"],
    loadedAfter: true,
    laterParse: false,
    direct: [null, true, false],
  });
});

Deno.test("a fallback schema validates once its validator has loaded, and a tool's first call waits for it", async () => {
  assert.deepEqual(await run("compile"), {
    engine: "fallback",
    loadingAtFirst: true,
    before: "TypeError",
    calls: ["invalid_input", "output"],
    loadingAfter: false,
    after: [false, true],
  });
});

Deno.test("a record whose resume schema needs the compiled validator is resumed in a fresh process once it has loaded", async () => {
  const record = await run("park");
  assert.equal((record as { v?: number }).v, 1);
  assert.deepEqual(await run("resume", JSON.stringify(record)), ["invalid_input", "output"]);
});

Deno.test("a tool asserting a format answers its first call once the format scanners have loaded", async () => {
  assert.deepEqual(await run("formats"), ["invalid_input", "output"]);
});

Deno.test("re2js loads for a host schema's first pattern that could backtrack for long, never for bounded patterns", async () => {
  assert.deepEqual(await run("patterns"), {
    bounded: ["invalid_input", "output"],
    loadedForBounded: false,
    unbounded: ["invalid_input", "output"],
    loadedAfter: true,
  });
});

Deno.test("re2js loads for a record's pattern that could backtrack for long when the record is not sealed", async () => {
  assert.deepEqual(await run("record-patterns"), {
    bounded: ["invalid_input", "output"],
    loadedForBounded: false,
    unbounded: ["invalid_input", "output"],
    loadedAfter: true,
  });
});

Deno.test("the batch runner loads on a batch's first run, after its arguments are checked, and runs and resumes it", async () => {
  assert.deepEqual(await run("batch"), {
    loadedAtFirst: false,
    refused: "TypeError",
    loadedAfterRefusal: false,
    run: ["output", "suspended"],
    resumed: ["output", "output"],
    loadedAfter: true,
  });
});

Deno.test("the seal's work loads on a record's first seal, its options checked at once, and seals and verifies", async () => {
  assert.deepEqual(await run("seal"), {
    loadedAtFirst: false,
    refused: "RangeError",
    verified: ["subject_mismatch", { callId: "call_1" }, "replayed"],
    parkedSealed: "string",
    resumed: ["output", "invalid_input"],
    loadedAfter: true,
  });
});
