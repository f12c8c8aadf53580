// The demo, run as a user runs it: `deno task demo` in a fresh process.

import assert from "node:assert/strict";

const demo = new URL("../../examples/demo.ts", import.meta.url).pathname;
const config = new URL("../../deno.json", import.meta.url).pathname;

async function runDemo(args: string[], cwd: string) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--config", config, "--allow-run", "--allow-read", "--allow-write", "--allow-env", demo, ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

function events(stdout: string): Record<string, unknown>[] {
  return stdout.trim().split("\n").map((line) => JSON.parse(line));
}

Deno.test("the demo's --json run shows every step in order and ends with its summary", async () => {
  const cwd = await Deno.makeTempDir();
  try {
    const { code, stdout } = await runDemo(["--json"], cwd);
    assert.equal(code, 0);
    const lines = events(stdout);
    const kinds = lines.map((line) => line.event);
    assert.equal(kinds[0], "tools");
    assert.equal(kinds.at(-1), "summary");

    const tools = (lines[0].tools as { name: string; schedulerClass: string }[]).map((tool) => tool.name);
    assert.deepEqual(tools, [
      "calculate",
      "demo__echo",
      "demo__word_count",
      "index_docs",
      "read_file",
      "search_web",
      "write_file",
    ]);

    const terminalOf = (id: string) => lines.find((line) => line.event === "terminal" && line.id === id)!;
    const failureKind = (id: string) => (terminalOf(id).failure as { kind: string }).kind;
    assert.equal(terminalOf("call_1").type, "output");
    assert.equal(failureKind("call_2"), "invalid_input");
    assert.equal(failureKind("call_3"), "not_found");
    assert.equal(failureKind("call_8"), "handler");
    assert.equal(failureKind("call_11"), "timeout");
    assert.equal(terminalOf("call_12").type, "suspended");

    // Ids are handed out in the order the calls are made.
    const ids = lines.filter((line) => line.event === "call").map((line) => Number(String(line.id).slice(5)));
    assert.deepEqual(ids, Array.from({ length: 12 }, (_, i) => i + 1));

    const plan = lines.find((line) => line.event === "plan")!;
    assert.deepEqual(plan.waves, [["call_4", "call_5", "call_6"], ["call_7"], ["call_8"]]);

    const progress = lines.filter((line) => line.event === "progress" && line.id === "call_10");
    assert.equal(progress.length, 20);
    assert.deepEqual(progress.map((line) => line.progress), Array.from({ length: 20 }, (_, i) => i + 1));
    assert.ok(kinds.indexOf("progress") < lines.indexOf(terminalOf("call_10")));

    const retry = lines.find((line) => line.event === "retry")!;
    assert.equal((retry.decision as { retry: boolean }).retry, true);

    const summary = lines.at(-1)!;
    assert.equal(summary.calls, 12);
    assert.deepEqual(summary.outcomes, {
      output: 7,
      invalid_input: 1,
      not_found: 1,
      handler: 1,
      timeout: 1,
      suspended: 1,
    });
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("a write parked by the demo resumes from its file in a second process", async () => {
  const cwd = await Deno.makeTempDir();
  try {
    const first = await runDemo(["--json", "--out", "parked.json"], cwd);
    assert.equal(first.code, 0);
    const record = JSON.parse(await Deno.readTextFile(`${cwd}/parked.json`));
    assert.equal(record.v, 1);
    assert.equal(record.tool, "write_file");

    const approved = await runDemo(["--json", "--resume", "parked.json", "--approve"], cwd);
    assert.equal(approved.code, 0);
    const lines = events(approved.stdout);
    const written = lines.find((line) => line.event === "terminal" && line.id === "call_12")!;
    assert.deepEqual((written.result as { output: unknown }).output, { written: true, bytes: 59 });
    const readBack = lines.find((line) => line.event === "terminal" && line.id === "call_13")!;
    assert.match((readBack.result as { output: { text: string } }).output.text, /record the demo/);

    const denied = await runDemo(["--json", "--resume", "parked.json", "--deny"], cwd);
    assert.equal(denied.code, 0);
    const refused = events(denied.stdout).find((line) => line.event === "terminal")!;
    assert.deepEqual((refused.result as { output: unknown }).output, { written: false, bytes: 0 });
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("the demo reports a broken MCP command clearly and exits non-zero", async () => {
  const cwd = await Deno.makeTempDir();
  try {
    const { code, stdout, stderr } = await runDemo(["--mcp", "salvor-no-such-server --flag"], cwd);
    assert.equal(code, 2);
    assert.equal(stdout, "");
    assert.match(stderr, /^error: Cannot start the MCP server: .*"salvor-no-such-server" was not found/m);
    assert.doesNotMatch(stderr, /\n\s+at /);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("the demo refuses unknown flags and a resume without an answer", async () => {
  const cwd = await Deno.makeTempDir();
  try {
    const unknown = await runDemo(["--frobnicate"], cwd);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /frobnicate/);
    const noAnswer = await runDemo(["--resume", "x.json"], cwd);
    assert.equal(noAnswer.code, 2);
    assert.match(noAnswer.stderr, /--approve or --deny/);
    const help = await runDemo(["--help"], cwd);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--resume <file>/);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("the demo's story starts with the tools, not their projections, unless asked", async () => {
  const cwd = await Deno.makeTempDir();
  try {
    const plain = await runDemo([], cwd);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stdout, /^7 tools, and how the runtime classifies them:/m);
    assert.doesNotMatch(plain.stdout, /"type": "function"/);
    assert.match(plain.stdout, /which the host does not trust/);
    assert.match(plain.stdout, /Summary: 12 calls in \d+ ms/);
    assert.doesNotMatch(plain.stdout, /\b1 calls\b/);

    const shown = await runDemo(["--show-projections", "--provider", "anthropic"], cwd);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /Tools as a model receives them \(anthropic format\)/);
    assert.match(shown.stdout, /"input_schema"/);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
