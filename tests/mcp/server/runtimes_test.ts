// The same fetch handler served by Node.js (through node:http), Bun
// (Bun.serve), workerd (the example Worker) and Vercel's edge runtime (a
// fetch-event script), each on a loopback port, answering the SDK's v2
// client: list and call, over 2026-07-28.

import assert from "node:assert/strict";
import { McpClient, StreamableHTTPClientTransport } from "./_client_deps.ts";
import { bundle, path, runtimesHome } from "./_runtimes.ts";
import { freePort } from "../_helpers.ts";

const FIXTURES = "tests/mcp/server/fixtures/runtimes";
const DEADLINE_MS = 60_000;

interface Started extends AsyncDisposable {
  readonly url: URL;
}

/** Starts a server and waits until its output names the URL it listens on; disposing stops it. */
async function start(command: string, args: string[], urlIn: (log: string) => string | undefined): Promise<Started> {
  const child = new Deno.Command(command, { args, stdout: "piped", stderr: "piped", stdin: "null" }).spawn();
  let log = "";
  const decoder = new TextDecoder();
  const drained = Promise.all(
    [child.stdout, child.stderr].map((stream) =>
      stream.pipeTo(new WritableStream({ write: (chunk) => void (log += decoder.decode(chunk, { stream: true })) }))
    ),
  );
  const stop = async () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    await child.status;
    await drained.catch(() => {});
  };
  const deadline = Date.now() + DEADLINE_MS;
  while (urlIn(log) === undefined) {
    if (Date.now() > deadline) {
      await stop();
      assert.fail(`${command} did not listen within ${DEADLINE_MS / 1000} s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url: new URL(urlIn(log)!), [Symbol.asyncDispose]: stop };
}

/** Lists and calls through the v2 client, retrying the connection while the server warms up. */
async function listAndCall(url: URL): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const client = new McpClient({ name: "runtimes", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    try {
      await client.connect(new StreamableHTTPClientTransport(url));
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name), [
        "calculate",
        "index_docs",
        "read_file",
        "search_web",
        "write_file",
      ]);
      const sum = await client.callTool({ name: "calculate", arguments: { op: "add", a: 2, b: 3 } });
      assert.deepEqual(sum.structuredContent, { value: 5 });
      const divided = await client.callTool({ name: "calculate", arguments: { op: "div", a: 1, b: 0 } });
      assert.equal(divided.isError, true);
      assert.deepEqual(divided.content, [{ type: "text", text: "Cannot divide by zero." }]);
      return;
    } finally {
      await client.close();
    }
  }
}

const printedUrl = (log: string) => /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(log)?.[1];

Deno.test("one fetch handler serves the v2 client from Node.js, Bun, workerd and the edge runtime", async (t) => {
  const home = await runtimesHome();
  const bin = (name: string) => path(new URL(`node_modules/.bin/${name}`, home));

  await t.step("Node.js, through node:http", async () => {
    const file = await bundle(`${FIXTURES}/node_server.ts`, "mcp-server/node_server.mjs", {
      condition: "node",
      format: "esm",
    });
    await using server = await start("node", [file], printedUrl);
    await listAndCall(server.url);
  });

  await t.step("Bun, with Bun.serve", async () => {
    const file = await bundle(`${FIXTURES}/bun_server.ts`, "mcp-server/bun_server.mjs", {
      condition: "node",
      format: "esm",
    });
    await using server = await start(bin("bun"), [file], printedUrl);
    await listAndCall(server.url);
  });

  await t.step("workerd, running the example Worker without Node.js compatibility", async () => {
    await bundle("examples/worker/worker.ts", "examples/worker.js", { condition: "workerd", format: "esm" });
    const address = `127.0.0.1:${freePort()}`;
    await using server = await start(
      bin("workerd"),
      ["serve", "examples/worker/workerd.capnp", `--socket-addr=http=${address}`],
      () => `http://${address}/`,
    );
    await listAndCall(server.url);
  });

  await t.step("Vercel's edge runtime, as a fetch-event script", async () => {
    const file = await bundle(`${FIXTURES}/edge_server.ts`, "mcp-server/edge_server.js", {
      condition: "browser",
      format: "iife",
    });
    const cli = path(new URL("node_modules/edge-runtime/dist/cli/index.js", home));
    await using server = await start(
      "node",
      [cli, "--listen", "--host=127.0.0.1", "--port=0", file],
      (log) => /http:\/\/127\.0\.0\.1:\d+\//.exec(log)?.[0],
    );
    await listAndCall(server.url);
  });
});
