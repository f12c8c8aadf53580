// The MCP round trip: server-everything's `echo` called through this
// module's ToolSet (validation, dispatch, result checks) against the bare
// SDK's Client.callTool, over the same transport type and the same server
// build. Each transport is a group; the bare SDK is the baseline.
//
//   deno bench -A bench/mcp_bench.ts
//
// Every server process this file starts is killed when it exits.

import process from "node:process";
import { ToolSet } from "../mod.ts";
import { connectMcpServer } from "../mcp.ts";
import { Client, StdioClientTransport, StreamableHTTPClientTransport } from "../tests/mcp/_sdk_v1_client.ts";

const EVERYTHING = "@modelcontextprotocol/server-everything@2026.8.31";
const ARGUMENTS = { message: "hello" };
const pids: number[] = [];
const groups: number[] = [];

addEventListener("unload", () => {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  for (const pgid of groups) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
});

/** The server's entry script, installed once through npx, so each server is one node process. */
async function serverScript(): Promise<string> {
  const { stdout, code } = await new Deno.Command("npx", {
    args: ["-y", "-p", EVERYTHING, "which", "mcp-server-everything"],
    stdout: "piped",
    stderr: "null",
  }).output();
  if (code !== 0) throw new Error(`Cannot find ${EVERYTHING} through npx`);
  return await Deno.realPath(new TextDecoder().decode(stdout).trim());
}

async function startHttp(script: string): Promise<string> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  const child = new Deno.Command("node", {
    args: [script, "streamableHttp"],
    env: { PORT: String(port) },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  pids.push(child.pid);
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes(`port ${port}`)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server-everything did not start: ${seen}`);
    seen += value;
  }
  reader.releaseLock();
  child.stderr.cancel().catch(() => {});
  return `http://127.0.0.1:${port}/mcp`;
}

const script = await serverScript();

const oursStdio = await connectMcpServer({ name: "everything", command: "node", args: [script, "stdio"] });
groups.push(oursStdio.pid!);
const stdioTools = oursStdio.register(new ToolSet());
const bareStdioTransport = new StdioClientTransport({ command: "node", args: [script, "stdio"], stderr: "ignore" });
const bareStdio = new Client({ name: "bare", version: "1.0.0" });
await bareStdio.connect(bareStdioTransport);
pids.push(bareStdioTransport.pid!);

const url = await startHttp(script);
const oursHttp = await connectMcpServer({ name: "everything", url });
const httpTools = oursHttp.register(new ToolSet());
const bareHttp = new Client({ name: "bare", version: "1.0.0" });
await bareHttp.connect(new StreamableHTTPClientTransport(new URL(url)));

// Each measured iteration is a batch of sequential calls, so the fixed
// iteration count is honoured. Times are per batch; ratios hold.
const BATCH = 20;
let calls = 0;

async function ours(tools: ToolSet): Promise<void> {
  for (let i = 0; i < BATCH; i++) {
    const done = await tools.call({ id: `call_${calls++}`, name: "everything__echo", arguments: ARGUMENTS });
    if (done.type !== "output") throw new Error(`echo failed: ${JSON.stringify(done)}`);
  }
}

async function bare(client: Client): Promise<void> {
  for (let i = 0; i < BATCH; i++) {
    const result = await client.callTool({ name: "echo", arguments: ARGUMENTS });
    if (result.isError) throw new Error("echo failed");
  }
}

const smoke = Deno.env.get("SALVOR_BENCH_SMOKE") === "1";
const sampling = smoke ? { n: 2, warmup: 1 } : { n: 50, warmup: 5 };

for (
  const [group, bareClient, tools] of [["stdio", bareStdio, stdioTools], [
    "Streamable HTTP",
    bareHttp,
    httpTools,
  ]] as const
) {
  Deno.bench({
    name: `bare SDK Client.callTool, ${BATCH} calls`,
    group,
    baseline: true,
    ...sampling,
    // deno bench awaits only functions declared async.
    fn: async () => await bare(bareClient),
  });
  Deno.bench({
    name: `salvor ToolSet.call (MCP tool), ${BATCH} calls`,
    group,
    ...sampling,
    fn: async () => await ours(tools),
  });
}
