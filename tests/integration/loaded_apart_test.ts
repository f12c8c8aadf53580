// The fallback validator and the format scanners load apart from the core,
// the first time a schema needs them. Each case runs in a fresh process,
// where they have not loaded yet, so the wait is real: a call, and a resume
// whose record's schema needs them, are answered once they have loaded,
// never refused or accepted before.

import assert from "node:assert/strict";
import { runFixture } from "./_fixture_process.ts";

const run = async (mode: string, input?: string): Promise<unknown> =>
  JSON.parse(await runFixture("loaded_apart_process.ts", mode, input));

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

Deno.test("a record whose resume schema needs the fallback is resumed in a fresh process once it has loaded", async () => {
  const record = await run("park");
  assert.equal((record as { v?: number }).v, 1);
  assert.deepEqual(await run("resume", JSON.stringify(record)), ["invalid_input", "output"]);
});

Deno.test("a tool asserting a format answers its first call once the format scanners have loaded", async () => {
  assert.deepEqual(await run("formats"), ["invalid_input", "output"]);
});
