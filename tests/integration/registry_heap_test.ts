// The heap a registered tool holds, read in a fresh process by the registry
// benchmark's probe after a full collection. V8 sizes its objects the same
// on every machine, so the bounds are not timings: each sits about a fifth
// above what a tool holds today, and well under what it held when each
// schema kept a promise chain and closures of its own for the parts it
// loads apart (5,900 and 6,900 bytes).

import assert from "node:assert/strict";

const probe = new URL("../../bench/_registry_heap_probe.ts", import.meta.url).pathname;
const config = new URL("../../deno.json", import.meta.url).pathname;

async function bytesPerTool(variant: "plain" | "pattern"): Promise<number> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--v8-flags=--expose-gc", "--config", config, probe, "5000", variant],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  assert.equal(code, 0, decoder.decode(stderr));
  return JSON.parse(decoder.decode(stdout).trim().split("\n").at(-1)!).bytesPerTool;
}

Deno.test("5,000 registered raw-schema tools hold under 3,000 bytes of heap each", async () => {
  const bytes = await bytesPerTool("plain");
  assert.ok(bytes < 3_000, `${bytes} bytes a tool`);
});

Deno.test("5,000 registered tools whose schemas each have a pattern hold under 4,500 bytes of heap each", async () => {
  const bytes = await bytesPerTool("pattern");
  assert.ok(bytes < 4_500, `${bytes} bytes a tool`);
});
