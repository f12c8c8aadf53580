// The MCP connection against a scripted fixture server of our own: paging,
// list changes, results, faults and cleanup.

import assert from "node:assert/strict";
import { ToolSet } from "../../mod.ts";
import { connectMcpServer, McpConnectionError, type McpToolsChange } from "../../mcp.ts";
import { connectFixture, livingChildren, survivors } from "./_helpers.ts";

Deno.test("connectMcpServer() lists all three pages of a paged tool list", async () => {
  await using server = await connectFixture("pages");
  assert.deepEqual(server.tools.map((tool) => tool.toolName), [
    "p1_one",
    "p1_two",
    "p2_one",
    "p2_two",
    "p3_one",
    "p3_two",
  ]);
  const tools = server.register(new ToolSet());
  assert.equal(tools.size, 6);
  assert.equal(tools.has("fixture__p3_two"), true);
});

Deno.test("connectMcpServer() refuses a server that repeats a page cursor, naming it", async () => {
  await assert.rejects(
    connectFixture("repeat-cursor"),
    (error) =>
      error instanceof McpConnectionError && error.server === "fixture" && /repeated a page cursor/.test(error.message),
  );
});

Deno.test("connectMcpServer() stops after maxPages pages of a tool list that never ends", async () => {
  await assert.rejects(
    connectFixture("endless", { maxPages: 5 }),
    (error) => error instanceof McpConnectionError && /more than 5 pages/.test(error.message),
  );
});

Deno.test("connectMcpServer() refuses two server tools that get the same registered name", async () => {
  await assert.rejects(
    connectFixture("collide"),
    (error) =>
      error instanceof McpConnectionError &&
      /"a\.b" and "a_b_[0-9a-f]{8}" both become "fixture__a_b_[0-9a-f]{8}"/.test(error.message),
  );
});

Deno.test("list_changed re-lists and reports added, removed and changed tools, updating the tool set", async () => {
  const changes: McpToolsChange[] = [];
  let changed!: () => void;
  const seen = new Promise<void>((resolve) => changed = resolve);
  await using server = await connectFixture("list-changed", {
    onToolsChanged: (change) => {
      changes.push(change);
      changed();
    },
  });
  const tools = server.register(new ToolSet());
  assert.deepEqual(tools.descriptors().map((d) => d.name), ["fixture__alpha", "fixture__beta", "fixture__swap"]);
  const swap = await tools.call({ id: "1", name: "fixture__swap" });
  assert.equal(swap.type, "output");
  await seen;
  assert.deepEqual(changes[0], { added: ["fixture__gamma"], removed: ["fixture__beta"], changed: ["fixture__alpha"] });
  assert.deepEqual(tools.descriptors().map((d) => d.name), ["fixture__alpha", "fixture__gamma", "fixture__swap"]);
  assert.equal(tools.get("fixture__alpha")?.descriptor.description, "Alpha, changed.");
  const gone = await tools.call({ id: "2", name: "fixture__beta" });
  assert.equal(gone.type === "failed" && gone.failure.kind, "not_found");
});

Deno.test("ToolSet.call() validates MCP arguments against a draft-07 inputSchema before sending", async () => {
  await using server = await connectFixture("default");
  const tools = server.register(new ToolSet());
  const bad = await tools.call({ id: "1", name: "fixture__echo", arguments: { text: "a", extra: 1 } });
  assert.equal(bad.type === "failed" && bad.failure.kind, "invalid_input");
  assert.equal(bad.type === "failed" && bad.failure.diagnostics?.[0].path, "/extra");
  const good = await tools.call({ id: "2", name: "fixture__echo", arguments: { text: "hi" } });
  assert.deepEqual(good.type === "output" && good.result.content, [{ type: "text", text: "hi" }]);
});

Deno.test("an isError result fails as handler, keeping the server's text bounded", async () => {
  await using server = await connectFixture("default");
  const tools = server.register(new ToolSet());
  const failed = await tools.call({ id: "1", name: "fixture__fail" });
  assert.equal(failed.type, "failed");
  if (failed.type !== "failed") return;
  assert.equal(failed.failure.kind, "handler");
  assert.match(failed.failure.modelText, /^disk full: x+/);
  assert.ok(failed.failure.modelText.length <= 2000);
});

Deno.test("structuredContent that breaks the outputSchema fails as invalid_output", async () => {
  await using server = await connectFixture("default");
  const tools = server.register(new ToolSet());
  const broken = await tools.call({ id: "1", name: "fixture__weather", arguments: { broken: true } });
  assert.equal(broken.type === "failed" && broken.failure.kind, "invalid_output");
  assert.equal(broken.type === "failed" && broken.failure.diagnostics?.[0].path, "/celsius");
});

Deno.test("missing structuredContent fails as invalid_output when the tool has an outputSchema", async () => {
  await using server = await connectFixture("default");
  const tools = server.register(new ToolSet());
  const missing = await tools.call({ id: "1", name: "fixture__weather", arguments: {} });
  assert.equal(missing.type === "failed" && missing.failure.kind, "invalid_output");
});

Deno.test("text, audio, resource-link and embedded resources become content parts", async () => {
  await using server = await connectFixture("default");
  const tools = server.register(new ToolSet());
  const rich = await tools.call({ id: "1", name: "fixture__rich" });
  assert.equal(rich.type, "output");
  if (rich.type !== "output") return;
  assert.deepEqual(rich.result.content, [
    { type: "text", text: "hello" },
    { type: "audio", data: "AAAA", mimeType: "audio/wav" },
    { type: "resource_link", uri: "file:///notes.txt", name: "notes", mimeType: "text/plain" },
    { type: "resource", uri: "file:///a.txt", mimeType: "text/plain", text: "alpha" },
    { type: "resource", uri: "file:///b.bin", blob: "AQID" },
  ]);
});

Deno.test("progress notifications that arrive in one read with the result all become progress events, in order", async () => {
  await using server = await connectFixture("default");
  const tools = server.register(new ToolSet());
  for (let round = 0; round < 5; round++) {
    const events = [];
    for await (const event of tools.stream({ id: `burst_${round}`, name: "fixture__burst", arguments: "{}" })) {
      events.push(event);
    }
    assert.deepEqual(
      events.map((event) => event.type === "progress" ? event.progress : event.type),
      [1, 2, 3, "output"],
    );
  }
});

Deno.test("a timeout sends notifications/cancelled and the server sees it", async () => {
  await using server = await connectFixture("default");
  const tools = server.register(new ToolSet());
  const late = await tools.call({ id: "1", name: "fixture__wait" }, { timeoutMs: 200 });
  assert.equal(late.type === "failed" && late.failure.kind, "timeout");
  let seen: unknown[] = [];
  for (let i = 0; i < 50 && seen.length === 0; i++) {
    const report = await tools.call({ id: "2", name: "fixture__cancellations" });
    assert.equal(report.type, "output");
    if (report.type === "output" && report.result.content[0].type === "text") {
      seen = JSON.parse(report.result.content[0].text);
    }
    if (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.equal(seen.length, 1);
});

Deno.test("an abort ends the call as cancelled, not timeout", async () => {
  await using server = await connectFixture("default");
  const tools = server.register(new ToolSet());
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  const stopped = await tools.call({ id: "1", name: "fixture__wait" }, { signal: controller.signal });
  assert.equal(stopped.type === "failed" && stopped.failure.kind, "cancelled");
});

Deno.test("a server that crashes mid-call fails the in-flight call as unavailable promptly and later calls at once", async () => {
  await using server = await connectFixture("default");
  const tools = server.register(new ToolSet());
  const started = Date.now();
  const crashed = await tools.call({ id: "1", name: "fixture__crash" }, { timeoutMs: 30_000 });
  assert.equal(crashed.type === "failed" && crashed.failure.kind, "unavailable");
  assert.match(crashed.type === "failed" ? crashed.failure.message : "", /exited with code 70/);
  // Generous: the server waits 100 ms before exiting.
  assert.ok(Date.now() - started < 5_000);
  assert.equal(server.closed, true);
  const later = await tools.call({ id: "2", name: "fixture__echo", arguments: { text: "x" } });
  assert.equal(later.type === "failed" && later.failure.kind, "unavailable");
  assert.equal(later.type === "failed" && later.failure.uncertain, false);
});

Deno.test("garbage on the server's stdout does not break the connection", async () => {
  const problems: Error[] = [];
  await using server = await connectFixture("garbage", { onError: (error) => problems.push(error) });
  const tools = server.register(new ToolSet());
  const echoed = await tools.call({ id: "1", name: "fixture__echo", arguments: { text: "still fine" } });
  assert.deepEqual(echoed.type === "output" && echoed.result.content, [{ type: "text", text: "still fine" }]);
  assert.ok(problems.some((problem) => /not JSON-RPC/.test(problem.message)));
  assert.match(server.stderr, /garbage on stdout/);
});

Deno.test("a server that never answers initialize is a connect timeout naming it", async () => {
  await assert.rejects(
    connectFixture("hang-init", { connectTimeoutMs: 1_500 }),
    (error) =>
      error instanceof McpConnectionError &&
      /"fixture" as it did not finish answering initialize within 1500 ms/.test(error.message),
  );
});

Deno.test("a server that starts slowly still connects within the connect timeout", async () => {
  await using server = await connectFixture("slow-start", { connectTimeoutMs: 30_000 });
  assert.ok(server.tools.length > 0);
});

Deno.test("a server that exits at start is an error naming it, with its exit code and stderr", async () => {
  await assert.rejects(connectFixture("exit-at-start"), (error) => {
    assert.ok(error instanceof McpConnectionError);
    assert.match(error.message, /"fixture" as it exited with code 3 before answering initialize/);
    assert.match(error.stderr, /refuses to start/);
    return true;
  });
});

Deno.test("a command that does not exist is an error naming the server and the command", async () => {
  await assert.rejects(
    connectMcpServer({ name: "ghost", command: "salvor-no-such-command-1234" }),
    (error) =>
      error instanceof McpConnectionError &&
      error.message ===
        'Cannot connect to MCP server "ghost" as its command "salvor-no-such-command-1234" was not found',
  );
});

Deno.test("close() leaves no process of the server behind and returns promptly", async () => {
  const server = await connectFixture("default");
  const pgid = server.pid!;
  const started = Date.now();
  await server.close();
  assert.ok(Date.now() - started < 3_000);
  assert.deepEqual(await survivors(pgid), []);
  await server.close();
});

Deno.test("a tool that answers with a task handle fails as unavailable, telling the model why", async () => {
  await using server = await connectFixture("task");
  const tools = server.register(new ToolSet());
  const done = await tools.call({ id: "1", name: "fixture__task", arguments: {} });
  assert.equal(done.type === "failed" && done.failure.kind, "unavailable");
  assert.match(done.type === "failed" ? done.failure.modelText : "", /background task/);
  assert.match(done.type === "failed" ? done.failure.message : "", /task handle/);
});

Deno.test("a tool list's ttlMs makes the next call after it passes re-read the list", async () => {
  const changes: McpToolsChange[] = [];
  await using server = await connectFixture("ttl", { onToolsChanged: (change) => changes.push(change) });
  const tools = server.register(new ToolSet());
  assert.equal(tools.has("fixture__fresh"), false);
  await tools.call({ id: "1", name: "fixture__echo", arguments: { text: "early" } });
  assert.equal(changes.length, 0);
  await new Promise((resolve) => setTimeout(resolve, 400));
  await tools.call({ id: "2", name: "fixture__echo", arguments: { text: "late" } });
  for (let i = 0; i < 50 && changes.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual((changes.at(0) as McpToolsChange | undefined)?.added, ["fixture__fresh"]);
  assert.equal(tools.has("fixture__fresh"), true);
});

Deno.test("a 2025 server that exits on the era probe is spawned once more and connects as a 2025 server", async () => {
  await using server = await connectFixture("exit-on-discover");
  assert.equal(server.era, "legacy");
  const tools = server.register(new ToolSet());
  const done = await tools.call({ id: "1", name: "fixture__echo", arguments: { text: "second life" } });
  assert.deepEqual(done.type === "output" && done.result.content, [{ type: "text", text: "second life" }]);
});

Deno.test("a 2025 stdio server that refuses the era probe is kept as a 2025 connection, its verdict reusable", async () => {
  await using server = await connectFixture("calls");
  assert.equal(server.era, "legacy");
  assert.match(server.protocolVersion ?? "", /^2025-/);
  assert.deepEqual(server.prior, { kind: "legacy" });
});

Deno.test("no child process of this test file survives it", async () => {
  assert.deepEqual(await livingChildren(), []);
});
