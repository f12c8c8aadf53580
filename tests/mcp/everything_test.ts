// The MCP connection against the real @modelcontextprotocol/server-everything,
// over stdio (spawned through npx) and over Streamable HTTP on a loopback port.

import { Client, StdioClientTransport, StreamableHTTPClientTransport, type Transport } from "./_sdk_v1_client.ts";
import assert from "node:assert/strict";
import { type ProgressEvent, type ToolEvent, ToolSet } from "../../mod.ts";
import { connectMcpServer, type McpServerConnection } from "../../mcp.ts";
import { connectEverythingStdio, EVERYTHING, livingChildren, startEverythingHttp, survivors } from "./_helpers.ts";

/**
 * The server's own tool list, read page by page with a bare SDK client that
 * declares what ours does: elicitation, which unlocks the server's elicitation tools.
 */
async function bareToolNames(transport: Transport): Promise<string[]> {
  const client = new Client({ name: "bare", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {}, url: {} } },
  });
  await client.connect(transport);
  try {
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      names.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return names;
  } finally {
    await client.close();
  }
}

async function exercise(t: Deno.TestContext, server: McpServerConnection, bare: () => Transport): Promise<void> {
  const tools = server.register(new ToolSet());

  await t.step("every listed tool is registered", async () => {
    const names = await bareToolNames(bare());
    assert.deepEqual(server.tools.map((tool) => tool.toolName), names);
    assert.ok(names.includes("echo") && names.includes("get-sum") && names.includes("get-tiny-image"));
    for (const name of names) assert.equal(tools.has(`everything__${name}`), true, name);
    assert.equal(tools.size, names.length);
  });

  await t.step("echo returns the right text", async () => {
    const done = await tools.call({ id: "1", name: "everything__echo", arguments: '{"message":"hello there"}' });
    assert.deepEqual(done.type === "output" && done.result.content, [{ type: "text", text: "Echo: hello there" }]);
  });

  await t.step("get-sum returns the right text", async () => {
    const done = await tools.call({ id: "2", name: "everything__get-sum", arguments: { a: 2, b: 40 } });
    assert.deepEqual(done.type === "output" && done.result.content, [{
      type: "text",
      text: "The sum of 2 and 40 is 42.",
    }]);
  });

  await t.step("get-sum with a string argument is invalid_input before anything is sent", async () => {
    let progressed = false;
    const done = await tools.call({ id: "3", name: "everything__get-sum", arguments: { a: 1, b: "2" } }, {
      onProgress: () => progressed = true,
    });
    assert.equal(done.type === "failed" && done.failure.kind, "invalid_input");
    assert.equal(done.type === "failed" && done.failure.diagnostics?.[0].path, "/b");
    assert.equal(progressed, false);
  });

  await t.step("get-tiny-image yields an image part with its MIME type", async () => {
    const done = await tools.call({ id: "4", name: "everything__get-tiny-image" });
    assert.equal(done.type, "output");
    if (done.type !== "output") return;
    const image = done.result.content.find((part) => part.type === "image");
    assert.equal(image?.type === "image" && image.mimeType, "image/png");
    assert.ok(image?.type === "image" && image.data.length > 100);
  });

  await t.step("get-structured-content yields a validated output", async () => {
    assert.ok(tools.get("everything__get-structured-content")?.descriptor.outputSchema);
    const done = await tools.call({
      id: "5",
      name: "everything__get-structured-content",
      arguments: { location: "Chicago" },
    });
    assert.equal(done.type, "output");
    if (done.type !== "output") return;
    assert.deepEqual(done.result.output, { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 });
  });

  await t.step("trigger-long-running-operation yields progress events in order and completes", async () => {
    const events: ToolEvent[] = [];
    for await (
      const event of tools.stream({
        id: "6",
        name: "everything__trigger-long-running-operation",
        arguments: { duration: 1, steps: 4 },
      })
    ) events.push(event);
    const progress = events.filter((event): event is ProgressEvent => event.type === "progress");
    assert.deepEqual(progress.map((event) => [event.progress, event.total]), [[1, 4], [2, 4], [3, 4], [4, 4]]);
    assert.equal(events.at(-1)?.type, "output");
  });

  await t.step("a short timeout on trigger-long-running-operation ends as timeout", async () => {
    const done = await tools.call(
      { id: "7", name: "everything__trigger-long-running-operation", arguments: { duration: 10, steps: 5 } },
      { timeoutMs: 300 },
    );
    assert.equal(done.type === "failed" && done.failure.kind, "timeout");
  });

  await t.step("an abort of trigger-long-running-operation ends as cancelled", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const done = await tools.call(
      { id: "8", name: "everything__trigger-long-running-operation", arguments: { duration: 10, steps: 5 } },
      { signal: controller.signal },
    );
    assert.equal(done.type === "failed" && done.failure.kind, "cancelled");
  });

  await t.step("the connection still answers after the stopped calls", async () => {
    const done = await tools.call({ id: "9", name: "everything__echo", arguments: { message: "again" } });
    assert.equal(done.type, "output");
  });
}

Deno.test("server-everything over stdio: tools, results, validation, progress, timeout and abort", async (t) => {
  const server = await connectEverythingStdio();
  const pgid = server.pid!;
  try {
    await exercise(
      t,
      server,
      () => new StdioClientTransport({ command: "npx", args: ["-y", EVERYTHING, "stdio"], stderr: "ignore" }),
    );
  } finally {
    await server.close();
  }
  assert.deepEqual(await survivors(pgid), []);
});

Deno.test("server-everything over Streamable HTTP: tools, results, validation, progress, timeout and abort", async (t) => {
  await using http = await startEverythingHttp();
  const server = await connectMcpServer({ name: "everything", url: http.url, connectTimeoutMs: 30_000 });
  try {
    assert.equal(server.pid, undefined);
    await exercise(t, server, () => new StreamableHTTPClientTransport(new URL(http.url)));
  } finally {
    await server.close();
  }
  await http.stop();
  assert.deepEqual(await survivors(http.pgid), []);
});

Deno.test("server-everything's annotations decide effects only when the host trusts it", async () => {
  const trusted = await connectEverythingStdio({ trusted: true, tools: { echo: { effects: ["fs.read"] } } });
  try {
    const byName = new Map(trusted.tools.map((tool) => [tool.toolName, tool.descriptor]));
    assert.deepEqual(byName.get("get-sum")?.effects, ["external.read"]);
    assert.equal(byName.get("get-sum")?.semantics.concurrency, "parallel");
    assert.deepEqual(byName.get("echo")?.effects, ["fs.read"]);
  } finally {
    await trusted.close();
  }
  const untrusted = await connectEverythingStdio();
  try {
    for (const tool of untrusted.tools) {
      assert.deepEqual(tool.descriptor.effects, ["external.mutation"], tool.toolName);
      assert.equal(tool.descriptor.semantics.idempotency, "non_idempotent");
      assert.equal(tool.descriptor.semantics.concurrency, "serial");
    }
  } finally {
    await untrusted.close();
  }
});

Deno.test("no child process of this test file survives it", async () => {
  assert.deepEqual(await livingChildren(), []);
});
