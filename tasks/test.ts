// The test task: every check the project has, in order, with one summary.
// Each step is a Deno subcommand run with this same Deno binary.

import { RedStepLines } from "./_red_step.ts";
import { closingLine, countsOf, duration, restated, type TestCounts } from "./_test_counts.ts";

interface Step {
  readonly name: string;
  readonly args: readonly string[];
}

// Every entrypoint deno.json exports, so a new one is doc-linted the day it is listed.
const { exports } = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
const entrypoints: string[] = [...new Set<string>(typeof exports === "string" ? [exports] : Object.values(exports))];

// Test-only packages are pinned in tests/dev_deps.ts and locked apart from the runtime ones.
const DEV_LOCK = "--lock=tests/deno.lock";

const steps: readonly Step[] = [
  // What reads the code without running it comes first.
  { name: "format", args: ["fmt", "--check"] },
  { name: "lint", args: ["lint"] },
  {
    name: "type check",
    args: ["check", DEV_LOCK, ...entrypoints, "src/", "tests/", "tasks/", "examples/"],
  },
  { name: "doc lint", args: ["doc", "--lint", ...entrypoints] },
  { name: "publish dry run", args: ["publish", "--dry-run", "--allow-dirty"] },
  // A few iterations of every benchmark case, each checking that its contenders behave as claimed,
  // so the suite cannot rot; its timings mean nothing.
  { name: "bench smoke", args: ["task", "bench:smoke"] },
  // The conformance checks in Deno (the source), Node.js, Bun, workerd and Vercel's edge runtime (the npm build),
  // the build's guard tests and the package test (dist/ packed and installed with npm, every entrypoint used);
  // it installs those runtimes from npm into .tools/, builds dist/ and installs the package first.
  { name: "runtimes", args: ["run", DEV_LOCK, "-A", "tests/runtimes/run.ts"] },
  // Every code block of the README runs too, so it cannot rot.
  {
    name: "doc tests",
    args: [
      "test",
      "--no-prompt",
      "--doc",
      "mod.ts",
      "dyn.ts",
      "providers.ts",
      "testing.ts",
      "otel.ts",
      "ai_sdk.ts",
      "openai_agents.ts",
      "langchain.ts",
      "mastra.ts",
      "src/core/",
      "src/providers/",
      "src/testing/",
      "src/otel/",
      "src/bridges/",
      "README.md",
    ],
  },
  // MCP examples may spawn a process or serve on a loopback port, so they get the permissions that takes.
  {
    name: "MCP doc tests",
    args: [
      "test",
      "--no-prompt",
      "--allow-env",
      "--allow-run",
      "--allow-read",
      "--allow-net=127.0.0.1",
      "--doc",
      "mcp.ts",
      "mcp_http.ts",
      "mcp_server.ts",
      "src/mcp/",
    ],
  },
  {
    name: "integration tests",
    args: [
      "test",
      DEV_LOCK,
      "--no-prompt",
      "--allow-read",
      "--allow-env",
      "--allow-run",
      "tests/integration/",
      "tests/tasks/",
    ],
  },
  // Real MCP servers (spawned and over loopback HTTP) and the MCP conformance suite.
  { name: "MCP tests", args: ["test", DEV_LOCK, "--allow-all", "tests/mcp/"] },
  // Each framework bridge driven by the real framework and its scripted model; OpenTelemetry spans through the
  // real SDK's in-memory exporter (an MCP fixture server is spawned to see the trace context in _meta).
  { name: "bridge tests", args: ["test", DEV_LOCK, "--allow-all", "tests/bridges/", "tests/otel/"] },
  // The demo, run end to end as a user runs it (it spawns an MCP server and writes a file).
  { name: "demo tests", args: ["test", DEV_LOCK, "--allow-all", "tests/examples/"] },
  // Last, so the output closes on the count of a `deno test` run just before the summary.
  // The core's tests get no permissions at all (no --allow flag): that is the proof it does no IO.
  {
    name: "core tests",
    args: ["test", DEV_LOCK, "--no-prompt", "tests/core/", "tests/providers/", "tests/testing/"],
  },
];

const only = Deno.args.length > 0 ? new Set(Deno.args) : undefined;
// Colours only for a person at a terminal; logs stay plain.
const env: Record<string, string> = Deno.stdout.isTerminal() ? {} : { NO_COLOR: "1" };

const NO_TESTS_FROM = /^running 0 tests from /;

/** Copies a step's output through, line by line, adding up the test counts it reports and keeping its errors. */
async function relay(
  stream: ReadableStream<Uint8Array>,
  sink: typeof Deno.stdout,
  tally: TestCounts[],
  red: RedStepLines,
) {
  const encoder = new TextEncoder();
  const pass = async (line: string, ending: string) => {
    // `deno test --doc` announces "running 0 tests from" each entrypoint it only type-checks: a line that
    // reports nothing, yet reads to a log scanner as a run that executed no test.
    if (NO_TESTS_FROM.test(line)) return;
    const counts = countsOf(line);
    if (counts) tally.push(counts);
    red.add(line);
    // write() may take part of a buffer; the rest is written until none is left.
    let bytes = encoder.encode(restated(line) + ending);
    while (bytes.length > 0) bytes = bytes.subarray(await sink.write(bytes));
  };
  let pending = "";
  for await (const text of stream.pipeThrough(new TextDecoderStream())) {
    const lines = (pending + text).split("\n");
    pending = lines.pop()!;
    for (const line of lines) await pass(line, "\n");
  }
  if (pending) await pass(pending, "");
}

const taskStarted = performance.now();
const results: {
  name: string;
  ok: boolean;
  seconds: number;
  passed: number;
  failed: number;
  why: readonly string[];
}[] = [];
for (const step of steps) {
  if (only && !only.has(step.name)) continue;
  console.log(`\n[${step.name}] deno ${step.args.join(" ")}`);
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), { args: [...step.args], env, stdout: "piped", stderr: "piped" })
    .spawn();
  const tally: TestCounts[] = [];
  const red = new RedStepLines();
  await Promise.all([relay(child.stdout, Deno.stdout, tally, red), relay(child.stderr, Deno.stderr, tally, red)]);
  const { code } = await child.status;
  const passed = tally.reduce((sum, counts) => sum + counts.passed, 0);
  // A step that fails without reporting a failed test (a format or type error) still counts as one failure.
  const failed = Math.max(tally.reduce((sum, counts) => sum + counts.failed, 0), code === 0 ? 0 : 1);
  const seconds = (performance.now() - started) / 1000;
  results.push({ name: step.name, ok: code === 0, seconds, passed, failed, why: code === 0 ? [] : red.lines() });
}

// What failed, said again just above the summary, where a reader of the log's last lines sees it.
for (const { name, why } of results.filter((result) => !result.ok)) {
  console.log(`\n[why ${name} is red]`);
  for (const line of why) console.log(`  ${line}`);
}

console.log("\n[summary]");
// No step line reads like a test runner's closing line (no "passed in 0.5 s", no "ok name"): a log reader finds
// one count at the close of this output, the plain total that ends it ("1212 passed, 0 failed").
const width = Math.max(...results.map(({ name }) => name.length));
for (const { name, ok, seconds, passed, failed } of results) {
  const counts = passed + failed > 0 ? `   ${passed + failed} tests, ${failed} failing` : "";
  console.log(`${name.padEnd(width)}   ${ok ? "green" : "RED  "}   ${seconds.toFixed(1).padStart(6)} s${counts}`);
}
const redSteps = results.filter((result) => !result.ok).map((result) => result.name);
const took = duration(performance.now() - taskStarted);
console.log(
  redSteps.length === 0
    ? `${results.length} of ${results.length} steps green in ${took}`
    : `${redSteps.length} of ${results.length} steps RED in ${took}: ${redSteps.join(", ")}`,
);
const total = (key: "passed" | "failed") => results.reduce((sum, result) => sum + result[key], 0);
console.log(closingLine(total("passed"), total("failed")));
Deno.exit(redSteps.length === 0 ? 0 : 1);
