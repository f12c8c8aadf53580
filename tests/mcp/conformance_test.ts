// The MCP conformance suite, client mode, against a small client built on
// the HTTP-only entrypoint.

import assert from "node:assert/strict";
import { livingChildren, serverEnv } from "./_helpers.ts";

const SUITE = "npm:@modelcontextprotocol/conformance@0.1.16";
const CLIENT = new URL("./fixtures/conformance_client.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

// Terminal colour codes, built from their escape character (a regex literal may not hold it).
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

interface Check {
  readonly id: string;
  readonly status: string;
}

async function runScenario(scenario: string): Promise<{ code: number; checks: Check[]; output: string }> {
  const workDir = await Deno.makeTempDir({ prefix: "salvor-mcp-conformance-" });
  try {
    const deno = Deno.execPath();
    const command = `${deno} run --allow-net=localhost,127.0.0.1 --allow-env --allow-read --config ${CONFIG} ${CLIENT}`;
    const { code, stdout, stderr } = await new Deno.Command(deno, {
      args: [
        "run",
        "--allow-all",
        "--no-config",
        "--no-lock",
        SUITE,
        "client",
        "--command",
        command,
        "--scenario",
        scenario,
      ],
      cwd: workDir,
      env: { ...serverEnv(), NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    // The suite prints each check as "<time> [<id> ] <STATUS> <description>".
    const output = (new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr))
      .replaceAll(COLOUR, "");
    const checks = [...output.matchAll(/\[([a-z0-9-]+)\s*\]\s+(SUCCESS|FAILURE|WARNING)\b/g)].map((match) => ({
      id: match[1],
      status: match[2],
    }));
    return { code, checks, output };
  } finally {
    await Deno.remove(workDir, { recursive: true });
  }
}

function assertPassed(result: { code: number; checks: Check[]; output: string }, required: string[]): void {
  assert.deepEqual(result.checks.filter((check) => check.status !== "SUCCESS"), [], result.output);
  for (const id of required) {
    assert.equal(result.checks.find((check) => check.id === id)?.status, "SUCCESS", `${id}\n${result.output}`);
  }
  assert.match(result.output, /OVERALL: PASSED/);
  assert.equal(result.code, 0, result.output);
}

Deno.test("the MCP conformance suite's initialize scenario passes against the HTTP entrypoint", async () => {
  assertPassed(await runScenario("initialize"), ["mcp-client-initialization"]);
});

Deno.test("the MCP conformance suite's tools_call scenario passes against the HTTP entrypoint", async () => {
  assertPassed(await runScenario("tools_call"), ["tool-add-numbers"]);
});

Deno.test("no child process of this test file survives it", async () => {
  assert.deepEqual(await livingChildren(), []);
});
