// The stdio server's guards for what a client sends: every message held to
// the bound on nesting before the SDK reads it, answered as the client's
// fault and never reported as the server's.

import assert from "node:assert/strict";
import { InMemoryTransport, type JSONRPCMessage } from "@modelcontextprotocol/server";
import { serveStdio } from "../../../mcp_server.ts";
import { defineJsonTool, ToolSet } from "../../../mod.ts";
import { servedTools, TEST_SEAL } from "./fixtures/tools.ts";

const INFO = { name: "stdio", version: "1.0.0" };

const tools = () =>
  new ToolSet().register(
    defineJsonTool({
      name: "t",
      description: "t",
      inputSchema: { type: "object" },
      effects: [],
      run: () => ({ ok: 1 }),
    }),
  );

/** The client's end of an in-memory connection to a served set, and what the server sent it. */
async function connect(
  options: { onError?: (error: Error) => void; set?: ToolSet; seal?: typeof TEST_SEAL; maxCallsInFlight?: number } = {},
) {
  const [client, server] = InMemoryTransport.createLinkedPair();
  const { set = tools(), ...rest } = options;
  const running = serveStdio(set, INFO, { transport: server, ...rest });
  const received: JSONRPCMessage[] = [];
  client.onmessage = (message) => void received.push(message);
  await client.start();
  const answer = async (id: number) => {
    for (let i = 0; i < 200 && !received.some((m) => "id" in m && m.id === id); i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return received.find((m) => "id" in m && m.id === id) as Record<string, unknown> | undefined;
  };
  return { client, running, answer, received };
}

/**
 * Opens a 2025-era session that takes elicitation, calls the served set's `publish` (id 1), which parks for a person,
 * and resolves to the elicitation request the server sends to ask for the answer.
 */
async function publishAsking(
  { client, answer, received }: Awaited<ReturnType<typeof connect>>,
): Promise<{ id: number }> {
  await client.send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: { elicitation: {} },
      clientInfo: { name: "c", version: "1" },
    },
  });
  await answer(0);
  await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await client.send({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "publish", arguments: { title: "x" } },
  });
  for (let i = 0; i < 200 && !received.some((m) => "method" in m && m.method === "elicitation/create"); i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const asked = received.find((m) => "method" in m && m.method === "elicitation/create") as { id: number };
  return asked;
}

function meta(capabilities: unknown = {}) {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
}

Deno.test("a message nested past the bound is answered -32600, and the connection serves on", async () => {
  const errors: Error[] = [];
  const { client, running, answer } = await connect({ onError: (error) => errors.push(error) });
  const deep = JSON.parse(`${"[".repeat(20_000)}${"]".repeat(20_000)}`);
  await client.send({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "t", arguments: {}, _meta: meta({ elicitation: { x: deep } }) },
  });
  const refused = await answer(1);
  assert.deepEqual(refused?.error, {
    code: -32600,
    message: "Cannot read the message as its containers nest more than 100 deep",
  });
  await client.send({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "t", arguments: {}, _meta: meta() },
  });
  assert.deepEqual((await answer(2))?.result, {
    content: [{ type: "text", text: '{"ok":1}' }],
    resultType: "complete",
    _meta: { "io.modelcontextprotocol/serverInfo": INFO },
  });
  assert.deepEqual(errors, []);
  await running.close();
});

Deno.test("an answer to the server nested past the bound fails the request it answers, which waits no longer", async () => {
  const errors: Error[] = [];
  const connection = await connect({
    set: servedTools({ seal: TEST_SEAL }).tools,
    seal: TEST_SEAL,
    onError: (error) => errors.push(error),
  });
  const { client, running, answer } = connection;
  const asked = await publishAsking(connection);
  const deep = JSON.parse(`${"[".repeat(20_000)}${"]".repeat(20_000)}`);
  await client.send({ jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { approved: deep } } });
  const done = await answer(1);
  assert.match(JSON.stringify(done), /containers nest more than 100 deep/);
  assert.deepEqual(errors, []);
  await running.close();
});

Deno.test("a 2025-era call waiting for a person holds its place under maxCallsInFlight, and runs once answered", async () => {
  const connection = await connect({
    set: servedTools({ seal: TEST_SEAL }).tools,
    seal: TEST_SEAL,
    maxCallsInFlight: 1,
  });
  const { client, running, answer } = connection;
  const asked = await publishAsking(connection);
  // The waiting call holds the one place: another call is turned away at once, as busy.
  await client.send({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "publish", arguments: { title: "y" } },
  });
  const busy = await answer(2);
  assert.deepEqual((busy?.result as { _meta: unknown })._meta, {
    "salvor/failure": { kind: "unavailable", retryable: true, uncertain: false },
  });
  // Answered, it runs in the place it held, not turned away for want of one.
  await client.send({ jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { approved: true } } });
  assert.deepEqual((await answer(1))?.result, {
    content: [{ type: "text", text: '{"published":true}' }],
    structuredContent: { published: true },
  });
  await running.close();
});
