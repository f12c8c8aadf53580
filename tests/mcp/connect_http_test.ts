// The MCP connection over Streamable HTTP against a fixture server of our
// own in a child process: a server that dies mid-call, and a live server
// whose stream breaks or whose request fails once.

import assert from "node:assert/strict";
import { ToolSet } from "../../mod.ts";
import { connectMcpServer, McpConnectionError } from "../../mcp_http.ts";
import { freePort, livingChildren, startHttpFixture, survivors } from "./_helpers.ts";

Deno.test("connecting to a Streamable HTTP url nothing listens on is an error naming the server and the url", async () => {
  const url = `http://127.0.0.1:${freePort()}/mcp`;
  await assert.rejects(
    connectMcpServer({ name: "web", url }),
    (error) =>
      error instanceof McpConnectionError &&
      error.message.startsWith(`Cannot connect to MCP server "web" as it could not be reached at ${url} (`) &&
      error.message.endsWith(") before answering initialize"),
  );
});

Deno.test("an unreachable url's user info and query, which may hold credentials, are left out of the error", async () => {
  const endpoint = `http://127.0.0.1:${freePort()}/mcp`;
  const url = endpoint.replace("http://", "http://user:hunter2@") + "?api_key=SECRET123";
  await assert.rejects(
    connectMcpServer({ name: "web", url }),
    (error) =>
      error instanceof McpConnectionError &&
      error.message.startsWith(`Cannot connect to MCP server "web" as it could not be reached at ${endpoint} (`) &&
      !/hunter2|SECRET123/.test(error.message),
  );
});

for (const script of ["default", "resumable", "no-get", "json"]) {
  Deno.test(`a Streamable HTTP server (${script}) killed mid-call fails the call as unavailable promptly and later calls at once`, async () => {
    await using http = await startHttpFixture(script);
    await using server = await connectMcpServer({ name: "web", url: http.url });
    const tools = server.register(new ToolSet());
    const pending = tools.call({ id: "1", name: "web__wait" }, { timeoutMs: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const killed = Date.now();
    await http.stop();
    const crashed = await pending;
    // Generous: far under the call's 30 s timeout, which is what it used to take.
    assert.ok(Date.now() - killed < 5_000, `${Date.now() - killed} ms`);
    assert.equal(crashed.type === "failed" && crashed.failure.kind, "unavailable");
    assert.match(
      crashed.type === "failed" ? crashed.failure.message : "",
      /^Cannot call "wait" on MCP server "web" as the server could not be reached at http:\/\/127\.0\.0\.1:\d+\/mcp \(.+\)$/,
    );
    assert.equal(server.closed, true);
    const asked = Date.now();
    const later = await tools.call({ id: "2", name: "web__echo", arguments: { text: "x" } });
    assert.ok(Date.now() - asked < 1_000);
    assert.equal(later.type === "failed" && later.failure.kind, "unavailable");
    assert.equal(later.type === "failed" && later.failure.uncertain, false);
    assert.deepEqual(await survivors(http.pgid), []);
  });
}

Deno.test("a call's SSE stream that a live server's connection drops is resumed and the connection stays open", async () => {
  await using http = await startHttpFixture("resumable");
  let broken = false;
  // Breaks the first tool call's response stream after its first event, as a proxy cutting it would.
  const cutting: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const isCall = typeof init?.body === "string" && init.body.includes('"tools/call"');
    if (broken || !isCall || !response.body) return response;
    broken = true;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const chunk = await reader.read();
        if (chunk.done) return controller.close();
        controller.enqueue(chunk.value);
        await reader.cancel();
        controller.error(new TypeError("error reading a body from connection"));
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  await using server = await connectMcpServer({ name: "web", url: http.url, fetch: cutting });
  const tools = server.register(new ToolSet());
  const resumed = await tools.call({ id: "1", name: "web__slow" }, { timeoutMs: 30_000 });
  assert.equal(broken, true);
  assert.deepEqual(resumed.type === "output" && resumed.result.content, [{ type: "text", text: "done" }]);
  assert.equal(server.closed, false);
  const echoed = await tools.call({ id: "2", name: "web__echo", arguments: { text: "still here" } });
  assert.deepEqual(echoed.type === "output" && echoed.result.content, [{ type: "text", text: "still here" }]);
});

Deno.test("one failed request to a live Streamable HTTP server fails only that call", async () => {
  await using http = await startHttpFixture("default");
  let failed = false;
  const flaky: typeof fetch = (input, init) => {
    if (!failed && typeof init?.body === "string" && init.body.includes('"tools/call"')) {
      failed = true;
      return Promise.reject(new TypeError("fetch failed"));
    }
    return fetch(input, init);
  };
  await using server = await connectMcpServer({ name: "web", url: http.url, fetch: flaky });
  const tools = server.register(new ToolSet());
  const first = await tools.call({ id: "1", name: "web__echo", arguments: { text: "lost" } });
  assert.equal(first.type === "failed" && first.failure.kind, "unavailable");
  assert.equal(server.closed, false);
  const second = await tools.call({ id: "2", name: "web__echo", arguments: { text: "fine" } });
  assert.deepEqual(second.type === "output" && second.result.content, [{ type: "text", text: "fine" }]);
});

Deno.test("no child process of this test file survives it", async () => {
  assert.deepEqual(await livingChildren(), []);
});
