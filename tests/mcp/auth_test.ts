// Authorization for Streamable HTTP servers: an authProvider's token goes
// with every request, a 401 makes it refresh once and the request is
// retried; static headers still go too.

import assert from "node:assert/strict";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { ToolSet } from "../../mod.ts";
import { connectMcpServer, McpConnectionError } from "../../mcp_http.ts";

/** A 2026-07-28 server that accepts one bearer token and records the headers it saw. */
function guardedServer(accepted: string) {
  const seen: { authorization: string | null; tenant: string | null }[] = [];
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "guarded", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.registerTool("whoami", { description: "Says who asks." }, () => ({
      content: [{ type: "text", text: "a friend" }],
    }));
    return server;
  }, { legacy: "reject" });
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const authorization = request.headers.get("authorization");
    seen.push({ authorization, tenant: request.headers.get("x-tenant") });
    if (authorization !== `Bearer ${accepted}`) {
      return new Response("unauthorized", {
        status: 401,
        headers: { "www-authenticate": 'Bearer error="invalid_token"' },
      });
    }
    return handler.fetch(request);
  });
  return { url: `http://127.0.0.1:${http.addr.port}/mcp`, seen, [Symbol.asyncDispose]: () => http.shutdown() };
}

Deno.test("a 401 makes the authProvider refresh once; the refreshed token and the static headers go with each request", async () => {
  await using server = guardedServer("fresh");
  let token = "stale";
  let refreshes = 0;
  await using guarded = await connectMcpServer({
    name: "guarded",
    url: server.url,
    headers: { "x-tenant": "acme" },
    authProvider: {
      token: () => Promise.resolve(token),
      onUnauthorized: () => {
        refreshes++;
        token = "fresh";
        return Promise.resolve();
      },
    },
  });
  const tools = guarded.register(new ToolSet());
  const done = await tools.call({ id: "1", name: "guarded__whoami", arguments: {} });
  assert.deepEqual(done.type === "output" && done.result.content, [{ type: "text", text: "a friend" }]);
  assert.equal(refreshes, 1);
  assert.equal(server.seen[0].authorization, "Bearer stale");
  assert.ok(server.seen.slice(1).every((request) => request.authorization === "Bearer fresh"));
  assert.ok(server.seen.every((request) => request.tenant === "acme"));
});

Deno.test("a token the server keeps refusing is a connect error naming the server", async () => {
  await using server = guardedServer("fresh");
  await assert.rejects(
    connectMcpServer({
      name: "guarded",
      url: server.url,
      authProvider: { token: () => Promise.resolve("stale"), onUnauthorized: () => Promise.resolve() },
    }),
    (error) => error instanceof McpConnectionError && /"guarded"/.test(error.message),
  );
});
