// The demo, run as a user runs it: `deno task demo` in a fresh process.

import assert from "node:assert/strict";

const demo = new URL("../../examples/demo.ts", import.meta.url).pathname;
const server = new URL("../../examples/demo_server.ts", import.meta.url).pathname;
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

type Line = Record<string, unknown> & { type: string; callId?: string };

function lines(stdout: string): Line[] {
  return stdout.trim().split("\n").map((line) => JSON.parse(line));
}

const ids = (...numbers: number[]) => numbers.map((n) => `call_${n}`);

/** The waves the runner ran, read from its updates: a wave starts every call before any of them finishes. */
function wavesRun(updates: Line[]): string[][] {
  const waves: string[][] = [];
  let finishing = true;
  for (const update of updates) {
    if (update.type === "started" && update.attempt === 1) {
      if (finishing) waves.push([]);
      waves.at(-1)!.push(update.callId!);
      finishing = false;
    } else if (update.type === "finished") finishing = true;
  }
  return waves;
}

Deno.test("the demo's --json run reads an OpenAI turn in, runs it in waves, parks the write and answers every call", async () => {
  const cwd = await Deno.makeTempDir();
  try {
    const { code, stdout, stderr } = await runDemo(["--json"], cwd);
    assert.equal(code, 0, stderr);
    const all = lines(stdout);
    assert.equal(all[0].type, "tools");
    assert.equal(all.at(-1)!.type, "summary");
    const tools = all[0].tools as { name: string; effectClass: string }[];
    assert.deepEqual(tools.map((tool) => tool.name), [
      "calculate",
      "demo__echo",
      "demo__word_count",
      "index_docs",
      "read_file",
      "search_web",
      "write_file",
    ]);
    assert.deepEqual(all[0].mcp, { server: "demo", trusted: true, tools: ["demo__echo", "demo__word_count"] });
    assert.equal(tools.find((tool) => tool.name === "demo__echo")!.effectClass, "read");

    // The turn arrives as an assistant message; the adapter keeps its ids, names and arguments.
    const [turn, nextTurn] = all.filter((line) => line.type === "turn");
    const toolCalls = (turn.message as { tool_calls: { id: string; function: { name: string; arguments: string } }[] })
      .tool_calls;
    assert.deepEqual(toolCalls.map((call) => call.id), ids(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    assert.deepEqual(
      turn.calls,
      toolCalls.map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments })),
    );
    assert.deepEqual(turn.waves, [ids(1, 2, 4, 5, 6, 7, 8, 9), ids(10), ids(11)]);
    assert.deepEqual(turn.unplanned, [{ id: "call_3", reason: "not_found" }]);

    // The first run, up to the parked record: the runner keeps the plan's waves (the unknown tool fails in the first).
    const parkedAt = all.findIndex((line) => line.type === "parked");
    const first = all.slice(0, parkedAt);
    assert.deepEqual(wavesRun(first), [ids(1, 2, 3, 4, 5, 6, 7, 8, 9), ids(10), ids(11)]);
    const end = (lines: Line[], id: string) => lines.find((line) => line.type === "finished" && line.callId === id)!;
    const terminal = (id: string) =>
      end(first, id).terminal as Record<string, Record<string, unknown>> & { type: string };
    assert.deepEqual(terminal("call_1").result.output, { value: 42 });
    assert.equal(terminal("call_2").failure.kind, "invalid_input");
    assert.deepEqual((terminal("call_2").failure.diagnostics as { path: string }[]).map((d) => d.path), [
      "/a",
      "/b",
      "/c",
      "/op",
    ]);
    assert.equal(terminal("call_3").failure.kind, "not_found");
    assert.deepEqual(terminal("call_7").result.output, { words: 5 });
    assert.equal(terminal("call_8").failure.kind, "handler");
    assert.equal(end(first, "call_8").attempts, 1);
    assert.equal(terminal("call_10").type, "suspended");
    assert.equal(
      terminal("call_10").suspended.reason,
      'The call to "write_file" needs approval as it declares fs.write',
    );
    assert.equal(terminal("call_11").failure.kind, "timeout");
    assert.equal(end(first, "call_11").attempts, 3);
    const retries = first.filter((line) => line.type === "retrying");
    assert.deepEqual(retries.map((line) => [line.callId, line.attempt, (line.failure as { kind: string }).kind]), [
      ["call_11", 1, "timeout"],
      ["call_11", 2, "timeout"],
    ]);

    const progress = first.filter((line) => line.type === "progress");
    assert.ok(progress.every((line) => line.callId === "call_9"));
    assert.deepEqual(
      progress.map((line) => (line.event as { progress: number }).progress),
      [...Array(20).keys()].map((i) => i + 1),
    );
    assert.ok(first.indexOf(progress.at(-1)!) < first.indexOf(end(first, "call_9")));

    // Every call starts once, in the model's order; the parked write again on resume; then the next turn's read.
    const started = all.filter((line) => line.type === "started" && line.attempt === 1).map((line) => line.callId);
    assert.deepEqual(started, ids(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 10, 12));

    // The record on disk: the whole turn, sealed, with the write parked in it (its own record sealed too).
    assert.deepEqual(all[parkedAt].calls, ["call_10"]);
    const record = JSON.parse(await Deno.readTextFile(`${cwd}/demo.suspended.json`));
    assert.equal(all[parkedAt].bytes, (await Deno.stat(`${cwd}/demo.suspended.json`)).size);
    assert.equal(record.v, 1);
    assert.equal(record.type, "batch");
    assert.equal(record.seal.kid, "demo");
    assert.deepEqual(record.calls.map((entry: { callId: string }) => entry.callId), toolCalls.map((call) => call.id));
    const write = record.calls[9];
    assert.equal(write.tool, "write_file");
    assert.equal(write.terminal.type, "suspended");
    assert.equal(write.terminal.suspended.tool, "write_file");
    assert.equal(write.terminal.suspended.seal.kid, "demo");
    assert.deepEqual(record.calls[0].terminal.result.output, { value: 42 });

    // The resume runs only the parked write, approved.
    const later = all.slice(parkedAt);
    assert.deepEqual(later.filter((line) => line.type === "started").map((line) => line.callId), ids(10, 12));
    assert.deepEqual((end(later, "call_10").terminal as { result: { output: unknown } }).result.output, { bytes: 59 });

    // The results go out as Chat Completions tool messages, one a call, in the model's order.
    const { messages } = all.find((line) => line.type === "results") as unknown as {
      messages: { role: string; tool_call_id: string; content: string }[];
    };
    assert.ok(messages.every((message) => message.role === "tool"));
    assert.deepEqual(messages.map((message) => message.tool_call_id), ids(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    const content = (id: string) => messages.find((message) => message.tool_call_id === id)!.content;
    assert.equal(content("call_1"), '{"value":42}');
    assert.match(
      content("call_2"),
      /^Error: The arguments for "calculate" are invalid; the tool did not run\.\n- \/a /,
    );
    assert.match(content("call_3"), /^Error: There is no tool named "delete_everything"\./);
    assert.equal(content("call_6"), "echo: hello from the turn");
    assert.equal(
      content("call_8"),
      'Error: No file at "notes/missing.md". Known files: notes/todo.md, notes/ideas.md.',
    );
    assert.equal(content("call_10"), '{"bytes":59}');
    assert.equal(content("call_11"), 'Error: The tool "search_web" did not finish in time.');

    // The next turn reads the note the approved write changed.
    assert.deepEqual(nextTurn.calls, [{ id: "call_12", name: "read_file", arguments: '{"path":"notes/todo.md"}' }]);
    const readBack = end(later, "call_12").terminal as { result: { output: { text: string } } };
    assert.match(readBack.result.output.text, /record the demo/);

    assert.deepEqual(all.at(-1), {
      type: "summary",
      calls: 12,
      outcomes: { output: 8, invalid_input: 1, not_found: 1, handler: 1, timeout: 1 },
      retries: 2,
      parked: 1,
      ms: all.at(-1)!.ms,
    });
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("with --deny and an untrusted MCP server, the parked calls come back denied", async () => {
  const cwd = await Deno.makeTempDir();
  try {
    const command = `"${Deno.execPath()}" run --quiet --no-prompt --config "${config}" "${server}"`;
    const { code, stdout, stderr } = await runDemo(["--json", "--deny", "--mcp", command], cwd);
    assert.equal(code, 0, stderr);
    const all = lines(stdout);
    assert.deepEqual(all[0].mcp, { server: "mcp", trusted: false, tools: ["mcp__echo", "mcp__word_count"] });
    const echo = (all[0].tools as { name: string }[]).find((tool) => tool.name === "mcp__echo");
    assert.deepEqual(echo, { name: "mcp__echo", effectClass: "write", schedulerClass: "serial" });
    assert.deepEqual(all.find((line) => line.type === "parked")!.calls, ids(6, 7, 10));

    const { messages } = all.find((line) => line.type === "results") as unknown as {
      messages: { tool_call_id: string; content: string }[];
    };
    const content = (id: string) => messages.find((message) => message.tool_call_id === id)!.content;
    assert.equal(
      content("call_6"),
      'Error: A person denied the call to "mcp__echo". Do not try it again without asking.',
    );
    assert.equal(
      content("call_10"),
      'Error: A person denied the call to "write_file". Do not try it again without asking.',
    );
    const readBack = all.findLast((line) => line.type === "finished")!;
    assert.deepEqual((readBack.terminal as { result: { output: unknown } }).result.output, {
      text: "- ship the tool layer\n- write the README\n",
    });
    assert.deepEqual(all.at(-1)!.outcomes, {
      output: 5,
      invalid_input: 1,
      not_found: 1,
      policy_required: 3,
      handler: 1,
      timeout: 1,
    });
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

Deno.test("the demo refuses unknown flags and providers, and takes its flags after a --", async () => {
  const cwd = await Deno.makeTempDir();
  try {
    const unknown = await runDemo(["--frobnicate"], cwd);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /frobnicate/);
    const provider = await runDemo(["--provider", "bard"], cwd);
    assert.equal(provider.code, 2);
    assert.match(provider.stderr, /^Unknown --provider "bard": use openai, anthropic, gemini, mcp\.$/m);
    const help = await runDemo(["--help"], cwd);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--deny/);
    const afterDashes = await runDemo(["--", "--help"], cwd);
    assert.equal(afterDashes.code, 0, afterDashes.stderr);
    assert.equal(afterDashes.stdout, help.stdout);
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
    assert.match(plain.stdout, /"demo", which ships with the demo: the host trusts its read-only\n {2}annotations\./);
    assert.match(plain.stdout, /^ {3}plan: \[call_1, call_2, call_4, .*, call_9\] then \[call_10\] then \[call_11\]$/m);
    assert.match(
      plain.stdout,
      /^<- call_10 parked: The call to "write_file" needs approval as it declares fs\.write$/m,
    );
    assert.match(plain.stdout, /^<- call_11 failed \(timeout\) after 3 attempts; the model reads:$/m);
    assert.match(plain.stdout, /^ {3}\{"role":"tool","tool_call_id":"call_10","content":"\{\\"bytes\\":59\}"\}$/m);
    assert.match(
      plain.stdout,
      /^Summary: 12 calls in \d+ ms: 8 output, 1 invalid_input, 1 not_found, 1 handler, 1 timeout; 2 retries, 1 parked and resumed\.$/m,
    );
    assert.doesNotMatch(plain.stdout, /\b1 calls\b/);

    const shown = await runDemo(["--show-projections", "--provider", "anthropic"], cwd);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /Tools as a model receives them \(anthropic format\)/);
    assert.match(shown.stdout, /"input_schema"/);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
