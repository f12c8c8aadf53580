// The fetch handler's guards for a public endpoint: body bound, Host and
// Origin checks, the authorize hook, the bound on calls in flight, and
// options checked when the handler is made.

import assert from "node:assert/strict";
import { OAuthError, OAuthErrorCode, requireBearerAuth } from "@modelcontextprotocol/server";
import { createMcpFetchHandler } from "../../../mcp_server.ts";
import { defineJsonTool, ToolSet } from "../../../mod.ts";
import { POST_HEADERS, postJsonRpc, serveHttp } from "./_connect.ts";
import { servedTools } from "./fixtures/tools.ts";
import { gapBound, largestGap } from "../../fixtures/event_loop.ts";

const INFO = { name: "guarded", version: "1.0.0" };
const listRequest = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };

function post(body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/mcp", {
    method: "POST",
    headers: { ...POST_HEADERS, host: "localhost", ...headers },
    body,
  });
}

Deno.test("a body over maxBodyBytes is answered 413 before it is parsed, streamed or declared", async () => {
  const handler = createMcpFetchHandler(new ToolSet(), INFO, { maxBodyBytes: 1024 });
  const big = JSON.stringify({ ...listRequest, params: { pad: "x".repeat(2000) } });
  const declared = await handler.fetch(post(big));
  assert.equal(declared.status, 413);
  assert.match((await declared.json()).error.message, /over 1024 bytes/);
  // No Content-Length: the body is counted as it streams in.
  const streamed = new ReadableStream({
    start(controller) {
      for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode("x".repeat(500)));
      controller.close();
    },
  });
  const counted = await handler.fetch(post(streamed));
  assert.equal(counted.status, 413);
  const fine = await handler.fetch(post(JSON.stringify(listRequest)));
  assert.equal(fine.status, 200);
  await handler.close();
});

Deno.test("a long body is parsed in paced pieces within the bounds on members and values, never holding the loop for long", async () => {
  const handler = createMcpFetchHandler(
    new ToolSet().register(
      defineJsonTool({ name: "t", description: "t", inputSchema: { type: "object" }, effects: [], run: () => ({}) }),
    ),
    INFO,
  );
  const call = (args: string) =>
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: { x: 1 } } })
      .replace('{"x":1}', args);
  // Within the default maxBodyBytes (1 MiB), these held the loop for 67 and 77 ms when parsed whole: JSON.parse,
  // then the SDK's check, which copies every member of the arguments.
  const dense = call(`{"x":[${"{},".repeat(340_000)}{}]}`);
  const wide = call(JSON.stringify(Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]))));
  for (const [shape, body] of [["340,000 empty objects", dense], ["50,000 members", wide]]) {
    const { result, gapMs } = await largestGap(async () => {
      const response = await handler.fetch(post(body));
      return { status: response.status, text: await response.text() };
    });
    console.log(`${shape}: largest event-loop gap ${gapMs.toFixed(1)} ms`);
    assert.ok(gapMs < gapBound(), `${shape}: ${gapMs} ms`);
    if (body === wide) {
      assert.equal(result.status, 400);
      const { error } = JSON.parse(result.text);
      assert.equal(error.code, -32600);
      assert.match(error.message, /^Cannot read the request as an object holds more than 10000 members/);
    } else {
      // Read, and refused by the tool's bound on arguments (256 KiB), as a tool error the model can read.
      assert.equal(result.status, 200);
      assert.match(result.text, /invalid_input/);
    }
  }
  await handler.close();
});

Deno.test("a body that is not JSON is a JSON-RPC parse error, not a crash", async () => {
  const handler = createMcpFetchHandler(new ToolSet(), INFO);
  const response = await handler.fetch(post("{not json"));
  assert.equal(response.status, 400);
  assert.equal((await response.json()).error.code, -32700);
  await handler.close();
});

Deno.test("a body that is JSON nested past the bound is refused as such, not as a body that is not JSON", async () => {
  const handler = createMcpFetchHandler(new ToolSet(), INFO);
  const response = await handler.fetch(post(`${"[".repeat(200_000)}${"]".repeat(200_000)}`));
  assert.equal(response.status, 400);
  const { error } = await response.json();
  assert.equal(error.code, -32600);
  assert.match(error.message, /^Cannot read the request as its containers nest more than 100 deep/);
  await handler.close();
});

Deno.test("a short body nested past the bound is the request's fault: 400, -32600, nothing reported as the server's", async () => {
  const errors: Error[] = [];
  const handler = createMcpFetchHandler(
    new ToolSet().register(
      defineJsonTool({ name: "t", description: "t", inputSchema: { type: "object" }, effects: [], run: () => ({}) }),
    ),
    INFO,
    { onError: (error) => errors.push(error) },
  );
  const deep = JSON.parse(`${"[".repeat(20_000)}${"]".repeat(20_000)}`);
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": { elicitation: { x: deep } },
  };
  const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "t" };
  const modern = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: {}, _meta: meta } };
  const legacy = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: { x: deep } } };
  for (const [body, extra] of [[modern, headers], [legacy, {}]] as const) {
    const text = JSON.stringify(body);
    assert.ok(text.length < 64 * 1024);
    const response = await handler.fetch(post(text, extra));
    assert.equal(response.status, 400);
    const { error } = await response.json();
    assert.equal(error.code, -32600);
    assert.match(error.message, /^Cannot read the request as its containers nest more than 100 deep/);
  }
  assert.deepEqual(errors, []);
  await handler.close();
});

Deno.test("a body whose stream fails is the request's fault: 400, a parse error, nothing reported as the server's", async () => {
  const errors: Error[] = [];
  const handler = createMcpFetchHandler(new ToolSet(), INFO, { onError: (error) => errors.push(error) });
  const failing = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"jsonrpc"'));
      controller.error(new Error("connection reset by peer"));
    },
  });
  const response = await handler.fetch(post(failing));
  assert.equal(response.status, 400);
  assert.equal((await response.json()).error.code, -32700);
  assert.deepEqual(errors, []);
  await handler.close();
});

Deno.test("a body that never ends stops being read when its request's signal aborts", async () => {
  const handler = createMcpFetchHandler(new ToolSet(), INFO);
  const endless = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"jsonrpc"'));
    },
  });
  const controller = new AbortController();
  const request = new Request("http://localhost/mcp", {
    method: "POST",
    headers: { ...POST_HEADERS, host: "localhost" },
    body: endless,
    signal: controller.signal,
  });
  const answered = handler.fetch(request);
  setTimeout(() => controller.abort(), 20);
  assert.equal((await answered).status, 400);
  await handler.close();
});

Deno.test("a body still arriving after bodyTimeoutMs is answered 408 and not read further", async () => {
  const handler = createMcpFetchHandler(new ToolSet(), INFO, { bodyTimeoutMs: 100 });
  let cancelled = false;
  let pending = 0;
  // A byte every 20 ms: no signal aborts it and it never passes maxBodyBytes, so only the time bound ends it.
  const trickle = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      pending++;
      controller.enqueue(new TextEncoder().encode(" "));
    },
    cancel() {
      cancelled = true;
    },
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answered = await Promise.race([
    handler.fetch(post(trickle)),
    new Promise<undefined>((resolve) => timer = setTimeout(() => resolve(undefined), 5_000)),
  ]).finally(() => clearTimeout(timer));
  assert.ok(answered, "the handler was still reading the body after 5 s");
  assert.equal(answered.status, 408);
  assert.match(
    (await answered.json()).error.message,
    /^Cannot read the request as its body took over 100 ms to arrive$/,
  );
  assert.ok(cancelled && pending >= 2, `${pending} pieces read`);
  // A body that arrives in time is read as ever.
  const listed = await handler.fetch(post(JSON.stringify(listRequest)));
  assert.equal(listed.status, 200);
  await handler.close();
});

Deno.test("a burst of initialize requests opens no more sessions than maxSessions; the rest are answered 503", async () => {
  const handler = createMcpFetchHandler(new ToolSet(), INFO, { legacy: "sessionful", maxSessions: 2 });
  const initialize = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } },
  };
  // Sent together: each checked the bound before any had opened its session.
  const responses = await Promise.all(
    Array.from({ length: 50 }, () => handler.fetch(post(JSON.stringify(initialize)))),
  );
  const opened = responses.filter((response) => response.headers.get("mcp-session-id") !== null);
  assert.equal(opened.length, 2);
  assert.deepEqual([...new Set(responses.map((response) => response.status))].sort(), [200, 503]);
  await Promise.all(responses.map((response) => response.body?.cancel()));
  await handler.close();
});

Deno.test("a session serves only the client authorize named when it opened; to another it is not there", async () => {
  const authorize = (request: Request) => {
    const token = request.headers.get("authorization")?.replace("Bearer ", "");
    if (token === "ada" || token === "bob") return Promise.resolve({ token, clientId: token, scopes: [] });
    return Promise.resolve(new Response("no", { status: 401 }));
  };
  const handler = createMcpFetchHandler(new ToolSet(), INFO, { legacy: "sessionful", authorize });
  const initialize = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } },
  };
  const opened = await handler.fetch(post(JSON.stringify(initialize), { authorization: "Bearer ada" }));
  const session = opened.headers.get("mcp-session-id")!;
  await opened.body?.cancel();
  const as = (who: string) => ({
    authorization: `Bearer ${who}`,
    "mcp-session-id": session,
    "mcp-protocol-version": "2025-06-18",
  });
  const list = JSON.stringify({ ...listRequest, id: 2 });
  assert.equal((await handler.fetch(post(list, as("bob")))).status, 404);
  const deleted = await handler.fetch(
    new Request("http://localhost/mcp", { method: "DELETE", headers: { host: "localhost", ...as("bob") } }),
  );
  assert.equal(deleted.status, 404);
  const own = await handler.fetch(post(list, as("ada")));
  assert.equal(own.status, 200);
  await own.body?.cancel();
  await handler.close();
});

Deno.test('toolsChanged() reaches a 2025-era session\'s event stream with legacy: "sessionful"', async () => {
  const handler = createMcpFetchHandler(new ToolSet(), INFO, { legacy: "sessionful" });
  const opened = await handler.fetch(post(JSON.stringify({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } },
  })));
  await opened.body?.cancel();
  const headers = { "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-06-18" };
  await (await handler.fetch(post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), headers)))
    .body?.cancel();
  // A session with no event stream open misses it, and nothing throws or rejects unhandled.
  handler.toolsChanged();
  await new Promise((resolve) => setTimeout(resolve, 10));
  const stream = await handler.fetch(
    new Request("http://localhost/mcp", { headers: { host: "localhost", accept: "text/event-stream", ...headers } }),
  );
  assert.equal(stream.status, 200);
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  handler.toolsChanged();
  const { value } = await reader.read();
  assert.match(value ?? "", /"method":"notifications\/tools\/list_changed"/);
  await reader.cancel();
  await handler.close();
  // After close there is no session left to tell, and nothing throws.
  handler.toolsChanged();
});

Deno.test("a closed handler answers 503 to every request, and opens no session", async () => {
  for (const legacy of ["stateless", "sessionful"] as const) {
    const handler = createMcpFetchHandler(new ToolSet(), INFO, { legacy });
    await handler.close();
    const initialize = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    };
    const response = await handler.fetch(post(JSON.stringify(initialize)));
    assert.equal(response.status, 503, legacy);
    assert.equal(response.headers.get("mcp-session-id"), null, legacy);
    assert.match((await response.json()).error.message, /handler is closed/, legacy);
  }
});

Deno.test("by default only local Host names are served, and a listed public name is", async () => {
  const local = createMcpFetchHandler(new ToolSet(), INFO);
  assert.equal((await local.fetch(post(JSON.stringify(listRequest), { host: "evil.example" }))).status, 403);
  assert.equal((await local.fetch(post(JSON.stringify(listRequest), { host: "127.0.0.1:8080" }))).status, 200);
  const listed = createMcpFetchHandler(new ToolSet(), INFO, { allowedHosts: ["mcp.example.com"] });
  assert.equal((await listed.fetch(post(JSON.stringify(listRequest), { host: "mcp.example.com" }))).status, 200);
  assert.equal((await listed.fetch(post(JSON.stringify(listRequest), { host: "localhost" }))).status, 403);
  const open = createMcpFetchHandler(new ToolSet(), INFO, { allowedHosts: ["*"] });
  assert.equal((await open.fetch(post(JSON.stringify(listRequest), { host: "anything.example" }))).status, 200);
  await Promise.all([local.close(), listed.close(), open.close()]);
});

Deno.test("a request with no Host header, as HTTP/2 brings one to Deno.serve, is checked by its URL's host", async () => {
  const handler = createMcpFetchHandler(new ToolSet(), INFO);
  const without = (url: string) =>
    new Request(url, { method: "POST", headers: POST_HEADERS, body: JSON.stringify(listRequest) });
  assert.equal(without("http://localhost/mcp").headers.has("host"), false);
  assert.equal((await handler.fetch(without("https://localhost:8443/mcp"))).status, 200);
  assert.equal((await handler.fetch(without("https://evil.example/mcp"))).status, 403);
  await handler.close();
});

Deno.test("a browser Origin must be listed; a request without one passes", async () => {
  const handler = createMcpFetchHandler(new ToolSet(), INFO, { allowedOrigins: ["app.example.com"] });
  const from = (origin: string) => handler.fetch(post(JSON.stringify(listRequest), { origin }));
  assert.equal((await from("https://evil.example")).status, 403);
  assert.equal((await from("null")).status, 403);
  assert.equal((await from("https://app.example.com")).status, 200);
  assert.equal((await handler.fetch(post(JSON.stringify(listRequest)))).status, 200);
  await handler.close();
});

Deno.test("authorize runs before the body is read: a bearer gate refuses with 401 and passes AuthInfo on", async () => {
  let seenBy: unknown;
  const whoami = defineJsonTool({
    name: "whoami",
    description: "Who is calling.",
    inputSchema: { type: "object" },
    effects: [],
    run: (_input, ctx) => {
      seenBy = (ctx.extensions.authInfo as { clientId?: string } | undefined)?.clientId;
      return {};
    },
  });
  const gate = requireBearerAuth({
    verifier: {
      verifyAccessToken: (token) => {
        if (token !== "good") return Promise.reject(new OAuthError(OAuthErrorCode.InvalidToken, "unknown token"));
        return Promise.resolve({ token, clientId: "ada", scopes: [], expiresAt: Date.now() / 1000 + 60 });
      },
    },
  });
  let bodyRead = false;
  const handler = createMcpFetchHandler(new ToolSet().register(whoami), INFO, {
    authorize: (request) => {
      bodyRead ||= request.bodyUsed;
      return gate(request);
    },
  });
  const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "whoami", arguments: {} } };
  const refused = await handler.fetch(post(JSON.stringify(call)));
  assert.equal(refused.status, 401);
  assert.equal(seenBy, undefined);
  const none = await handler.fetch(post(JSON.stringify(call), { authorization: "Bearer bad" }));
  assert.equal(none.status, 401);
  assert.match(none.headers.get("www-authenticate") ?? "", /Bearer/);
  const allowed = await handler.fetch(post(JSON.stringify(call), { authorization: "Bearer good" }));
  assert.equal(allowed.status, 200);
  await allowed.text();
  assert.equal(seenBy, "ada");
  assert.equal(bodyRead, false);
  await handler.close();
});

Deno.test("calls over maxCallsInFlight get a retryable tool error at once and never run", async () => {
  const { tools, stats } = servedTools();
  await using served = serveHttp(tools, { maxCallsInFlight: 2 });
  const waits = [1, 2].map((id) =>
    fetch(served.url, {
      method: "POST",
      headers: POST_HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "wait", arguments: {} } }),
    })
  );
  const deadline = Date.now() + 10_000;
  while (stats.runs.wait !== 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(stats.runs.wait, 2);
  const over = await postJsonRpc(served.url, {
    jsonrpc: "2.0",
    id: 3,
    method: "tools/call",
    params: { name: "echo", arguments: { text: "hi" } },
  });
  const result = over.message.result as { isError: boolean; _meta: Record<string, unknown> };
  assert.equal(result.isError, true);
  assert.deepEqual(result._meta["salvor/failure"], { kind: "unavailable", retryable: true, uncertain: false });
  assert.equal(stats.runs.echo, undefined);
  await served.handler.close();
  await Promise.allSettled(waits.map((response) => response.then((r) => r.body?.cancel())));
});

Deno.test("malformed options are refused when the handler is made, with the option named", () => {
  const tools = new ToolSet();
  assert.throws(() => createMcpFetchHandler(tools, { name: "" } as never), /Cannot serve MCP as info/);
  assert.throws(() => createMcpFetchHandler(tools, INFO, { maxBodyBytes: 0 }), RangeError);
  assert.throws(() => createMcpFetchHandler(tools, INFO, { bodyTimeoutMs: 2 ** 31 }), /up to 2147483647/);
  assert.throws(() => createMcpFetchHandler(tools, INFO, { maxCallsInFlight: 1.5 }), /options.maxCallsInFlight/);
  assert.throws(() => createMcpFetchHandler(tools, INFO, { allowedHosts: "localhost" as never }), TypeError);
  assert.throws(() => createMcpFetchHandler(tools, INFO, { legacy: "sometimes" as never }), /options.legacy/);
  assert.throws(() => createMcpFetchHandler(tools, INFO, { authorize: 1 as never }), /options.authorize/);
});
