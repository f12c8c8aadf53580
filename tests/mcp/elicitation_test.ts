// 2025-era elicitation: a server's elicitation/create request, sent while a
// call runs, reaches the connection's onInputRequest; without one it is
// declined, as the spec allows, and so is one with no call in flight or past
// one a call in flight. Against the real server-everything, a server built
// on the SDK's v2 server, spoken to in the 2025 era, and a raw one.

import assert from "node:assert/strict";
import { ToolSet } from "../../mod.ts";
import { connectMcpServer, type McpInputRequest } from "../../mcp.ts";
import { modernFixture } from "./fixtures/_modern.ts";
import { connectEverythingStdio, livingChildren, type RawMessage, rawServer, rawTool } from "./_helpers.ts";

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

/** A form elicitation a raw server sends, with the given id. */
function elicitation(id: string): Record<string, unknown> {
  return {
    id,
    method: "elicitation/create",
    params: { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: {} } },
  };
}

Deno.test("a 2025-era server's elicitation is declined unasked when no call of the connection is in flight", async () => {
  const answers: RawMessage[] = [];
  const server = await rawServer((message, raw) => {
    if (message.method === "tools/list") raw.send({ id: message.id, result: { tools: [rawTool("a")] } });
    else if (message.method === undefined) answers.push(message);
  });
  let asked = 0;
  await using _connection = await connectMcpServer({
    name: "s",
    transport: server.transport,
    onInputRequest: () => {
      asked++;
      return { action: "accept", content: {} };
    },
  });
  server.send(elicitation("e1"));
  for (let i = 0; i < 50 && answers.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(answers, [{ jsonrpc: "2.0", id: "e1", result: { action: "decline" } }]);
  assert.equal(asked, 0);
});

Deno.test("a 2025-era server's elicitations past one a call in flight are declined; the one asked is answered", async () => {
  const answers: RawMessage[] = [];
  let called!: (id: string | number) => void;
  const call = new Promise<string | number>((resolve) => called = resolve);
  const server = await rawServer((message, raw) => {
    if (message.method === "tools/list") raw.send({ id: message.id, result: { tools: [rawTool("a")] } });
    else if (message.method === "tools/call") called(message.id!);
    else if (message.method === undefined) answers.push(message);
  });
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => answer = resolve);
  let asked = 0;
  await using connection = await connectMcpServer({
    name: "s",
    transport: server.transport,
    onInputRequest: async () => {
      asked++;
      await answered;
      return { action: "accept", content: {} };
    },
  });
  const end = connection.register(new ToolSet()).call({ id: "1", name: "s__a" });
  const id = await call;
  for (let i = 1; i <= 5; i++) server.send(elicitation(`e${i}`));
  for (let i = 0; i < 50 && answers.length < 4; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  const declined = { action: "decline" };
  assert.deepEqual(answers, ["e2", "e3", "e4", "e5"].map((id) => ({ jsonrpc: "2.0", id, result: declined })));
  answer();
  for (let i = 0; i < 50 && answers.length < 5; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(answers[4], { jsonrpc: "2.0", id: "e1", result: { action: "accept", content: {} } });
  assert.equal(asked, 1);
  server.send({ id, result: { content: [{ type: "text", text: "done" }] } });
  assert.equal((await end).type, "output");
});

Deno.test("no child process of this test file survives it", async () => {
  assert.deepEqual(await livingChildren(), []);
});
