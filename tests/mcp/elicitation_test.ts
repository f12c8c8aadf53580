// 2025-era elicitation: a server's elicitation/create request, sent while a
// call runs, reaches the connection's onInputRequest; without one it is
// declined, as the spec allows. Against the real server-everything and a
// server built on the SDK's v2 server, spoken to in the 2025 era.

import assert from "node:assert/strict";
import { ToolSet } from "../../mod.ts";
import { connectMcpServer, type McpInputRequest } from "../../mcp.ts";
import { modernFixture } from "./fixtures/_modern.ts";
import { connectEverythingStdio, livingChildren } from "./_helpers.ts";

const texts = (content: unknown) => (content as { text: string }[]).map((part) => part.text).join("\n");

Deno.test("server-everything's form elicitation is answered by the live handler", async () => {
  const asked: McpInputRequest[] = [];
  await using everything = await connectEverythingStdio({
    onInputRequest: (request) => {
      asked.push(request);
      return { action: "accept", content: { name: "Ada" } };
    },
  });
  assert.equal(everything.era, "legacy");
  assert.match(everything.protocolVersion ?? "", /^2025-/);
  const tools = everything.register(new ToolSet());
  const done = await tools.call({ id: "1", name: "everything__trigger-elicitation-request", arguments: {} });
  assert.equal(done.type, "output");
  assert.match(texts(done.type === "output" && done.result.content), /Name: Ada/);
  assert.equal(asked[0].method, "elicitation/create");
  assert.equal((asked[0].params?.requestedSchema as { type?: string }).type, "object");
});

Deno.test("server-everything's form elicitation is declined when the host has no handler", async () => {
  await using everything = await connectEverythingStdio();
  const tools = everything.register(new ToolSet());
  const done = await tools.call({ id: "1", name: "everything__trigger-elicitation-request", arguments: {} });
  assert.match(texts(done.type === "output" && done.result.content), /declined/);
});

Deno.test("a live answer that breaks the requested schema is refused, not sent", async () => {
  await using everything = await connectEverythingStdio({
    onInputRequest: () => ({ action: "accept", content: { name: 42 } }),
  });
  const tools = everything.register(new ToolSet());
  const done = await tools.call({ id: "1", name: "everything__trigger-elicitation-request", arguments: {} });
  assert.equal(done.type, "failed");
});

Deno.test("a v2 server's input requests reach a 2025-era connection as elicitation, round after round", async () => {
  const asked: string[] = [];
  await using server = await connectMcpServer({
    ...modernFixture({}, true),
    prior: { kind: "legacy" },
    onInputRequest: (request) => {
      asked.push(String(request.params?.message));
      return asked.length === 1
        ? { action: "accept", content: { city: "Rome" } }
        : { action: "accept", content: { ok: true } };
    },
  });
  assert.equal(server.era, "legacy");
  const tools = server.register(new ToolSet());
  const done = await tools.call({ id: "trip", name: "modern__book", arguments: { traveller: "Ada" } });
  assert.deepEqual(done.type === "output" && done.result.content, [{ type: "text", text: "Booked Rome for Ada." }]);
  assert.deepEqual(asked, ["Where does Ada go?", "Book Rome for Ada?"]);
});

Deno.test("without a handler a v2 server's input request is declined in the 2025 era", async () => {
  await using server = await connectMcpServer({ ...modernFixture({}, true), prior: { kind: "legacy" } });
  const tools = server.register(new ToolSet());
  const done = await tools.call({ id: "trip", name: "modern__book", arguments: { traveller: "Ada" } });
  assert.equal(done.type === "failed" && done.failure.kind, "handler");
  assert.match(done.type === "failed" ? done.failure.modelText : "", /No destination/);
});

Deno.test("no child process of this test file survives it", async () => {
  assert.deepEqual(await livingChildren(), []);
});
