// The SDK's v2 client (2026-07-28) against this module's server, over stdio
// (the fixture process) and over Streamable HTTP (the fetch handler in
// Deno.serve): the wire contract as an MCP client sees it.

import assert from "node:assert/strict";
import { McpProtocolError } from "./_client_deps.ts";
import { type Connected, connectHttp, connectStdio, POST_HEADERS, postJsonRpc, serveHttp } from "./_connect.ts";
import { servedTools } from "./fixtures/tools.ts";
import { McpClient, StreamableHTTPClientTransport } from "./_client_deps.ts";

type Client = Connected["client"];

async function stats(client: Client): Promise<{ runs: Record<string, number>; aborted: number }> {
  const result = await client.callTool({ name: "stats", arguments: {} });
  return JSON.parse((result.content as { text: string }[])[0].text);
}

/** Polls until `check` holds, for at most 10 s: a bound against a hang, not a timing claim. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!await check()) {
    if (Date.now() > deadline) assert.fail(`${what} did not happen within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const EXPECTED_ANNOTATIONS: Record<string, [boolean, boolean, boolean, boolean]> = {
  // [readOnly, destructive, idempotent, openWorld]
  charge_card: [false, true, false, true], // an unknown effect claims nothing
  count: [true, false, true, false],
  delete_note: [false, true, false, false],
  echo: [true, false, true, false],
  fetch_page: [false, false, true, true],
  publish: [false, true, false, true],
  read_note: [true, false, true, false],
};

for (const [transport, connect] of [["stdio", connectStdio], ["HTTP", connectHttp]] as const) {
  Deno.test(`the v2 client speaks 2026-07-28 to the ${transport} server: list, call, failures, progress, cancel`, async (t) => {
    await using connected = await connect();
    const { client } = connected;
    assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");

    await t.step("tools/list: every tool in name order, annotations from effects", async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name), servedTools().tools.descriptors().map((d) => d.name));
      for (
        const [name, [readOnlyHint, destructiveHint, idempotentHint, openWorldHint]] of Object.entries(
          EXPECTED_ANNOTATIONS,
        )
      ) {
        const { annotations } = tools.find((tool) => tool.name === name)!;
        assert.deepEqual(
          { ...annotations, title: undefined },
          { title: undefined, readOnlyHint, destructiveHint, idempotentHint, openWorldHint },
          name,
        );
      }
      const echo = tools.find((tool) => tool.name === "echo")!;
      assert.equal(echo.title, "Echo");
      assert.deepEqual(echo.outputSchema?.required, ["text"]);
      assert.deepEqual(echo._meta?.["salvor/contract"], {
        version: "1.0.0",
        effects: [],
        semantics: { idempotency: "idempotent", retry: "automatic", concurrency: "parallel" },
      });
    });

    await t.step("tools/call: structured content for a tool with an output schema", async () => {
      const result = await client.callTool({ name: "echo", arguments: { text: "hello" } });
      assert.equal(result.isError, undefined);
      assert.deepEqual(result.structuredContent, { text: "hello" });
      assert.deepEqual(result.content, [{ type: "text", text: '{"text":"hello"}' }]);
    });

    await t.step("invalid arguments: a tool error the model can read, and the handler never ran", async () => {
      const before = (await stats(client)).runs.echo ?? 0;
      const result = await client.callTool({ name: "echo", arguments: { text: 42 } });
      assert.equal(result.isError, true);
      assert.match((result.content as { text: string }[])[0].text, /\/text \[type\]/);
      assert.deepEqual(result._meta?.["salvor/failure"], { kind: "invalid_input", uncertain: false });
      assert.equal((await stats(client)).runs.echo ?? 0, before);
    });

    await t.step("a handler failure: the failure's model text, never its message or stack", async () => {
      const result = await client.callTool({ name: "fail", arguments: {} });
      assert.equal(result.isError, true);
      assert.deepEqual(result.content, [{ type: "text", text: "The disk is on fire; do not retry." }]);
      assert.deepEqual(result._meta?.["salvor/failure"], {
        kind: "handler",
        retryable: false,
        uncertain: false,
        code: "EFIRE",
      });
      assert.doesNotMatch(JSON.stringify(result), /secret|app\.ts/);
    });

    await t.step("an unknown tool is a protocol error", async () => {
      await assert.rejects(client.callTool({ name: "nope", arguments: {} }), McpProtocolError);
    });

    await t.step("progress reaches a client that asked for it, always growing", async () => {
      const seen: { progress: number; total?: number; message?: string }[] = [];
      const result = await client.callTool({ name: "count", arguments: {} }, { onprogress: (p) => seen.push(p) });
      assert.deepEqual(result.content, [{ type: "text", text: '{"counted":3}' }]);
      // The SDK may drop the last notification when it arrives with the result.
      assert.ok(seen.length >= 2, JSON.stringify(seen));
      assert.deepEqual(seen[0], { progress: 1, total: 3, message: "step 1" });
      assert.ok(seen.every((p, i) => i === 0 || p.progress > seen[i - 1].progress), JSON.stringify(seen));
    });

    await t.step("a client's abort cancels the call: the handler's signal aborts", async () => {
      const controller = new AbortController();
      const waiting = client.callTool({ name: "wait", arguments: {} }, { signal: controller.signal });
      await eventually(async () => ((await stats(client)).runs.wait ?? 0) === 1, "the wait call starting");
      controller.abort();
      await assert.rejects(waiting);
      await eventually(async () => (await stats(client)).aborted === 1, "the handler's signal aborting");
    });
  });
}

Deno.test("tools/list pages through every tool in name order, with a cursor per page", async () => {
  const { tools } = servedTools();
  await using served = serveHttp(tools, { pageSize: 3 });
  const client = new McpClient({ name: "tests", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(served.url));
  try {
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      names.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    assert.deepEqual(names, tools.descriptors().map((d) => d.name));
    // The client follows the cursors itself; a bare request shows the pages.
    const first = await postJsonRpc(served.url, { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    const result = first.message.result as { tools: unknown[]; nextCursor?: string };
    assert.equal(result.tools.length, 3);
    assert.equal(result.nextCursor, names[2]);
    assert.ok(pages >= 1);
  } finally {
    await client.close();
  }
});

Deno.test("a dropped HTTP request aborts its call", async () => {
  const { tools, stats } = servedTools();
  await using served = serveHttp(tools);
  const controller = new AbortController();
  const request = fetch(served.url, {
    method: "POST",
    headers: POST_HEADERS,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "wait", arguments: {} } }),
    signal: controller.signal,
  });
  await eventually(() => Promise.resolve(stats.runs.wait === 1), "the wait call starting");
  controller.abort();
  // The answer may have begun (an event stream) before the abort; either way the client is gone.
  await request.then((response) => response.body?.cancel()).catch(() => {});
  await eventually(() => Promise.resolve(stats.aborted === 1), "the handler's signal aborting");
});

Deno.test("a tools/list cursor that is not a string is invalid params (-32602), not the server's failure", async () => {
  const errors: Error[] = [];
  const { tools } = servedTools();
  await using served = serveHttp(tools, { onError: (error) => errors.push(error) });
  for (const cursor of [5, { a: 1 }, null]) {
    const { message } = await postJsonRpc(served.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { cursor },
    });
    const error = message.error as { code: number; message: string };
    assert.equal(error.code, -32602, JSON.stringify(cursor));
    assert.match(error.message, /cursor/);
  }
  assert.deepEqual(errors, []);
});
