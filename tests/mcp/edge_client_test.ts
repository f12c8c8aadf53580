// The HTTP-only client entrypoint on the edge: bundled under the workerd and
// browser conditions it imports no node: module, and the bundles connect to a
// 2026-07-28 server and call its tool from workerd (no Node.js
// compatibility) and from Vercel's edge runtime.

import assert from "node:assert/strict";
import { createMcpHandler, fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { bundle, nodeImports, path, runtimesHome } from "./server/_runtimes.ts";
import { freePort } from "./_helpers.ts";

const FIXTURES = "tests/mcp/fixtures/runtimes";
const DEADLINE_MS = 60_000;

for (const condition of ["workerd", "browser"] as const) {
  Deno.test(`the ./mcp/http entrypoint imports no node: module under the ${condition} condition`, async () => {
    const file = await bundle("mcp_http.ts", `mcp-client/entry.${condition}.js`, { condition, format: "esm" });
    const code = await Deno.readTextFile(file);
    assert.match(code, /connectMcpServer/);
    assert.deepEqual(nodeImports(code), []);
  });
}

/** A 2026-07-28 server with an echo tool, in this process. */
function upstream() {
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "upstream", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.registerTool(
      "echo",
      {
        description: "Echoes a text.",
        inputSchema: fromJsonSchema<{ text: string }>({
          type: "object",
          properties: { text: { type: "string" } },
          required: ["text"],
        }),
      },
      ({ text }) => ({ content: [{ type: "text", text }] }),
    );
    return server;
  }, { legacy: "reject" });
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => handler.fetch(request));
  return { url: `http://127.0.0.1:${http.addr.port}/mcp`, [Symbol.asyncDispose]: () => http.shutdown() };
}

/** Runs a server process until disposed, asking it (with retries while it starts) to call the upstream tool. */
async function askThrough(command: string, args: string[], base: (log: string) => string | undefined, up: string) {
  const child = new Deno.Command(command, { args, stdout: "piped", stderr: "piped", stdin: "null" }).spawn();
  let log = "";
  const decoder = new TextDecoder();
  const drained = Promise.all(
    [child.stdout, child.stderr].map((stream) =>
      stream.pipeTo(new WritableStream({ write: (chunk) => void (log += decoder.decode(chunk, { stream: true })) }))
    ),
  );
  try {
    const deadline = Date.now() + DEADLINE_MS;
    for (;;) {
      const url = base(log);
      if (url !== undefined) {
        try {
          const response = await fetch(`${url}?upstream=${encodeURIComponent(up)}`);
          const text = await response.text();
          assert.equal(response.status, 200, text);
          return JSON.parse(text);
        } catch (error) {
          if (Date.now() > deadline) throw new Error(`${command} did not answer: ${log}`, { cause: error });
        }
      } else if (Date.now() > deadline) {
        assert.fail(`${command} did not listen within ${DEADLINE_MS / 1000} s:\n${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    await child.status;
    await drained.catch(() => {});
  }
}

const EXPECTED = {
  era: "modern",
  protocolVersion: "2026-07-28",
  content: [{ type: "text", text: "from the edge" }],
};

Deno.test("the HTTP-only client connects and calls from workerd and from the edge runtime", async (t) => {
  const home = await runtimesHome();
  const bin = (name: string) => path(new URL(`node_modules/.bin/${name}`, home));
  await using server = upstream();

  await t.step("workerd, without Node.js compatibility", async () => {
    await bundle(`${FIXTURES}/edge_client_worker.ts`, "mcp-client/edge_client_worker.js", {
      condition: "workerd",
      format: "esm",
    });
    const address = `127.0.0.1:${freePort()}`;
    const answer = await askThrough(
      bin("workerd"),
      ["serve", `${FIXTURES}/edge_client.capnp`, `--socket-addr=http=${address}`],
      () => `http://${address}/`,
      server.url,
    );
    assert.deepEqual(answer, EXPECTED);
  });

  await t.step("Vercel's edge runtime, as a fetch-event script", async () => {
    const file = await bundle(`${FIXTURES}/edge_client_event.ts`, "mcp-client/edge_client_event.js", {
      condition: "browser",
      format: "iife",
    });
    const cli = path(new URL("node_modules/edge-runtime/dist/cli/index.js", home));
    const answer = await askThrough(
      "node",
      [cli, "--listen", "--host=127.0.0.1", "--port=0", file],
      (log) => /http:\/\/127\.0\.0\.1:\d+\//.exec(log)?.[0],
      server.url,
    );
    assert.deepEqual(answer, EXPECTED);
  });
});
