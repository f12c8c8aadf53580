// The MCP conformance suite's server scenarios that apply to tools, run
// against this module's fetch handler serving a ToolSet (the suite speaks
// 2025-11-25, so this is the 2025-era path of the handler). The suite's
// other server scenarios do not apply, and are not run:
//
//   logging-set-level, tools-call-with-logging
//       logging is deprecated in 2026-07-28; a tool reports through progress
//   completion-complete, resources-*, prompts-*
//       a ToolSet serves tools only: no completions, resources or prompts
//   tools-call-sampling
//       a tool has no way to ask the client's model; hosts call models themselves
//   tools-call-elicitation, elicitation-sep1034-defaults, elicitation-sep1330-enums
//       a tool asks a person only by parking its call (suspend), answered over
//       2026-07-28 input requests or a 2025 session (see parked_test.ts); these
//       scenarios want a server-to-client request mid-call on stateless HTTP
//   server-sse-polling, server-sse-multiple-streams
//       2025 sessions with resumable event streams; this server is stateless

import assert from "node:assert/strict";
import { serverEnv, startListeningServer } from "../_helpers.ts";

const SUITE = "npm:@modelcontextprotocol/conformance@0.1.16";
const FIXTURE = new URL("./fixtures/conformance_server.ts", import.meta.url).pathname;

// Terminal colour codes, built from their escape character (a regex literal may not hold it).
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

const SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-error",
  "tools-call-with-progress",
  "json-schema-2020-12",
  "dns-rebinding-protection",
];

Deno.test("the MCP conformance suite's tool scenarios pass against the fetch handler", async (t) => {
  await using server = await startListeningServer(
    Deno.execPath(),
    ["run", "--lock=tests/deno.lock", "--allow-net=127.0.0.1", "--allow-env", "--allow-read", "--no-prompt", FIXTURE],
    { PATH: Deno.env.get("PATH"), ...serverEnv() },
    (output) => {
      const port = /listening on port (\d+)/.exec(output)?.[1];
      return port === undefined ? undefined : Number(port);
    },
  );
  const workDir = await Deno.makeTempDir({ prefix: "salvor-mcp-server-conformance-" });
  try {
    for (const scenario of SCENARIOS) {
      await t.step(scenario, async () => {
        const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "--allow-all",
            "--no-config",
            "--no-lock",
            SUITE,
            "server",
            "--url",
            server.url,
            "--scenario",
            scenario,
          ],
          cwd: workDir,
          env: { ...serverEnv(), NO_COLOR: "1" },
          stdout: "piped",
          stderr: "piped",
        }).output();
        const output = (new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr)).replaceAll(COLOUR, "");
        const checks = [...output.matchAll(/\[([a-z0-9-]+)\s*\]\s+(SUCCESS|FAILURE|WARNING)\b/g)];
        assert.ok(checks.length > 0, output);
        assert.deepEqual(checks.filter((check) => check[2] !== "SUCCESS").map((check) => check[1]), [], output);
        assert.equal(code, 0, output);
      });
    }
  } finally {
    await Deno.remove(workDir, { recursive: true });
  }
});
