// examples/agent_step.ts, run as a user runs it: `deno run examples/agent_step.ts`, with no permissions.

import assert from "node:assert/strict";

const example = new URL("../../examples/agent_step.ts", import.meta.url).pathname;
const config = new URL("../../deno.json", import.meta.url).pathname;
const glueStart = "// The glue (";

Deno.test("examples/agent_step.ts runs with no permissions: a retry, a parked write, and every call answered in each provider's shape", async () => {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--config", config, example],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  assert.equal(code, 0, decoder.decode(stderr));
  const lines = decoder.decode(stdout).trim().split("\n");
  assert.deepEqual([lines[0], lines[2]], [
    "openai, first run: call_1 output (2 attempts), call_2 output (1 attempts), call_3 suspended (1 attempts)",
    "anthropic, first run: toolu_1 output (2 attempts), toolu_2 output (1 attempts), toolu_3 suspended (1 attempts)",
  ]);
  const openai = JSON.parse(lines[1]);
  assert.deepEqual(openai.map((m: { tool_call_id: string }) => m.tool_call_id), ["call_1", "call_2", "call_3"]);
  assert.equal(openai[2].content, '{"path":"summary.md","bytes":12}');
  const [anthropic] = JSON.parse(lines[3]);
  assert.deepEqual(
    anthropic.content.map((block: { tool_use_id: string; is_error?: boolean }) => [block.tool_use_id, block.is_error]),
    [["toolu_1", undefined], ["toolu_2", undefined], ["toolu_3", undefined]],
  );
});

Deno.test("examples/agent_step.ts keeps its glue to the 15 lines it claims", async () => {
  const text = await Deno.readTextFile(example);
  const claimed = Number(text.match(/\/\/ The glue \((\d+) lines\)/)?.[1]);
  const glue = text.slice(text.indexOf(glueStart)).split("\n").slice(1);
  const body = glue.slice(0, glue.findIndex((line) => line.startsWith("const task")));
  assert.equal(body.filter((line) => line.trim() !== "" && !line.trim().startsWith("//")).length, claimed);
  assert.ok(claimed <= 15);
});
