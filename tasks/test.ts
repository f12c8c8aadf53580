// The test task: every check the project has, in order, with one summary.
// Each step is a Deno subcommand run with this same Deno binary.

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
  { name: "format", args: ["fmt", "--check"] },
  { name: "lint", args: ["lint"] },
  {
    name: "type check",
    args: ["check", DEV_LOCK, ...entrypoints, "src/", "tests/", "tasks/", "examples/"],
  },
  // The core's tests get no permissions at all: that is the proof it does no IO.
  {
    name: "core tests (no permissions)",
    args: ["test", DEV_LOCK, "--no-prompt", "tests/core/", "tests/providers/", "tests/testing/"],
  },
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
      "src/core/",
      "src/providers/",
      "src/testing/",
      "README.md",
    ],
  },
  // MCP examples may spawn a process, so they get the permissions that takes.
  {
    name: "MCP doc tests",
    args: [
      "test",
      "--no-prompt",
      "--allow-env",
      "--allow-run",
      "--allow-read",
      "--doc",
      "mcp.ts",
      "mcp_http.ts",
      "src/mcp/",
    ],
  },
  {
    name: "integration tests",
    args: ["test", DEV_LOCK, "--no-prompt", "--allow-read", "--allow-env", "--allow-run", "tests/integration/"],
  },
  // Real MCP servers (spawned and over loopback HTTP) and the MCP conformance suite.
  { name: "MCP tests", args: ["test", DEV_LOCK, "--allow-all", "tests/mcp/"] },
  // The demo, run end to end as a user runs it (it spawns an MCP server and writes a file).
  { name: "demo tests", args: ["test", DEV_LOCK, "--allow-all", "tests/examples/"] },
  { name: "doc lint", args: ["doc", "--lint", ...entrypoints] },
  // The conformance checks in Deno (the source), Node.js, Bun, workerd and Vercel's edge runtime (the npm build),
  // the build's guard tests and the package test (dist/ packed and installed with npm, every entrypoint used);
  // it installs those runtimes from npm into .tools/, builds dist/ and installs the package first.
  { name: "runtimes", args: ["run", DEV_LOCK, "-A", "tests/runtimes/run.ts"] },
  // A few iterations of every benchmark case, each checking that its contenders behave as claimed,
  // so the suite cannot rot; its timings mean nothing.
  { name: "bench smoke", args: ["task", "bench:smoke"] },
  { name: "publish dry run", args: ["publish", "--dry-run", "--allow-dirty"] },
];

const only = Deno.args.length > 0 ? new Set(Deno.args) : undefined;
const results: { name: string; ok: boolean; seconds: number }[] = [];
for (const step of steps) {
  if (only && !only.has(step.name)) continue;
  console.log(`\n=== ${step.name}: deno ${step.args.join(" ")}`);
  const started = performance.now();
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: [...step.args],
    stdout: "inherit",
    stderr: "inherit",
  })
    .output();
  results.push({ name: step.name, ok: code === 0, seconds: (performance.now() - started) / 1000 });
}

console.log("\n=== summary");
for (const { name, ok, seconds } of results) {
  console.log(`${ok ? "ok  " : "FAIL"} ${name} (${seconds.toFixed(1)} s)`);
}
const failedCount = results.filter((result) => !result.ok).length;
console.log(`steps: ${results.length - failedCount} passed, ${failedCount} failed`);
Deno.exit(failedCount === 0 ? 0 : 1);
