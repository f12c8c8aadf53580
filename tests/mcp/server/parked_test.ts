// Parked calls on the wire: a call that suspends (a handler's suspend, or
// the set's approval gate) is answered as a 2026-07-28 input request whose
// requestState is the sealed record, encrypted; the client's retry with the
// person's answer resumes it, on any replica; a changed, replayed or
// another client's state is refused; 2025-era clients are asked where the
// transport can ask them, and told why not where it cannot.

import assert from "node:assert/strict";
import { Client, StdioClientTransport } from "../_sdk_v1_client.ts";
import { ElicitRequestSchema } from "../fixtures/_sdk_v1_server.ts";
import { StreamableHTTPClientTransport as V1HttpTransport } from "../_sdk_v1_client.ts";
import { McpClient, McpProtocolError, StreamableHTTPClientTransport } from "./_client_deps.ts";
import { createMcpFetchHandler, type McpFetchHandlerOptions, serveStdio } from "../../../mcp_server.ts";
import { defineJsonTool, MemoryNonceStore, suspend, ToolSet } from "../../../mod.ts";
import { serverEnv } from "../_helpers.ts";
import { serveHttp } from "./_connect.ts";
import { servedTools, TEST_SEAL } from "./fixtures/tools.ts";

const approveDeletes = (descriptor: { name: string }) => descriptor.name === "delete_note" ? "suspend" as const : true;

function sealedReplica(options: McpFetchHandlerOptions = {}) {
  const { tools, stats } = servedTools({ seal: TEST_SEAL, approve: approveDeletes });
  return { served: serveHttp(tools, { seal: TEST_SEAL, ...options }), stats };
}

async function v2Client(url: URL, headers: Record<string, string> = {}): Promise<McpClient> {
  const client = new McpClient({ name: "tests", version: "1.0.0" }, {
    versionNegotiation: { mode: "auto" },
    capabilities: { elicitation: { form: {} } },
  });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

interface InputRequired {
  resultType: "input_required";
  inputRequests: Record<string, { method: string; params: { message: string; requestedSchema: unknown } }>;
  requestState: string;
}

function call(client: McpClient, name: string, args: unknown, retry?: { requestState: string; answer: unknown }) {
  return client.request(
    {
      method: "tools/call",
      params: {
        name,
        arguments: args,
        ...(retry === undefined ? {} : { requestState: retry.requestState, inputResponses: { answer: retry.answer } }),
      },
    } as never,
    { allowInputRequired: true } as never,
  ) as Promise<Record<string, unknown>>;
}

/** Every readable text a state could hide: each dot-separated part, base64url-decoded. */
function readable(state: string): string {
  return state.split(".").map((part) => {
    try {
      return new TextDecoder().decode(
        Uint8Array.from(atob(part.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0)),
      );
    } catch {
      return part;
    }
  }).join("\n");
}

Deno.test("a handler's suspension is an input request; the retry with the answer resumes it on another replica", async () => {
  const first = sealedReplica();
  const second = sealedReplica();
  await using _first = first.served;
  await using _second = second.served;
  const asker = await v2Client(first.served.url);
  const answerer = await v2Client(second.served.url);
  try {
    const parked = await call(asker, "publish", { title: "Launch" }) as unknown as InputRequired;
    assert.equal(parked.resultType, "input_required");
    const request = parked.inputRequests.answer;
    assert.equal(request.method, "elicitation/create");
    assert.equal(request.params.message, 'Publish "Launch"?');
    assert.deepEqual(request.params.requestedSchema, {
      type: "object",
      properties: { approved: { type: "boolean" } },
      required: ["approved"],
    });
    // Encrypted: neither the payload nor the reason can be read from the state.
    assert.doesNotMatch(readable(parked.requestState), /secret draft|Launch/);

    const done = await call(answerer, "publish", { title: "Launch" }, {
      requestState: parked.requestState,
      answer: { action: "accept", content: { approved: true } },
    });
    assert.deepEqual(done.structuredContent, { published: true });

    // Single use: the same state again is refused by the replica that used it.
    const again = await call(answerer, "publish", { title: "Launch" }, {
      requestState: parked.requestState,
      answer: { action: "accept", content: { approved: true } },
    });
    assert.equal(again.isError, true);
    assert.match(JSON.stringify(again.content), /resume/i);
  } finally {
    await asker.close();
    await answerer.close();
  }
});

Deno.test("a retried state resumes once per nonce store: once per replica by default, once in all with a shared one", async () => {
  const answer = { action: "accept", content: { approved: true } };
  for (const nonces of [undefined, new MemoryNonceStore()]) {
    const seal = nonces === undefined ? TEST_SEAL : { ...TEST_SEAL, nonces };
    const replicas = [1, 2].map(() => serveHttp(servedTools({ seal }).tools, { seal }));
    const clients = await Promise.all(replicas.map((replica) => v2Client(replica.url)));
    try {
      const parked = await call(clients[0], "publish", { title: "x" }) as unknown as InputRequired;
      const retried = [];
      for (const client of [...clients, clients[0]]) {
        retried.push(await call(client, "publish", { title: "x" }, { requestState: parked.requestState, answer }));
      }
      assert.deepEqual(
        retried.map((done) => done.isError === true ? "refused" : "resumed"),
        nonces === undefined ? ["resumed", "resumed", "refused"] : ["resumed", "refused", "refused"],
      );
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      await Promise.all(replicas.map((replica) => replica[Symbol.asyncDispose]()));
    }
  }
});

Deno.test("an enum without a type is a string form field only when its values are all strings; else not a form", async () => {
  const pick = defineJsonTool({
    name: "pick",
    description: "Picks what a person chooses.",
    inputSchema: { type: "object", properties: { choices: { type: "array" } }, required: ["choices"] },
    effects: [],
    run: (input: { choices: unknown[] }, ctx) =>
      ctx.resume === undefined
        ? suspend({
          reason: "Pick one",
          resumeSchema: { type: "object", properties: { n: { enum: input.choices } }, required: ["n"] },
        })
        : { picked: ctx.resume },
  });
  await using served = serveHttp(new ToolSet({ seal: TEST_SEAL }).register(pick), { seal: TEST_SEAL });
  const client = await v2Client(served.url);
  try {
    const strings = await call(client, "pick", { choices: ["a", "b"] }) as unknown as InputRequired;
    assert.deepEqual(strings.inputRequests.answer.params.requestedSchema, {
      type: "object",
      properties: { n: { enum: ["a", "b"], type: "string" } },
      required: ["n"],
    });
    for (const choices of [[1, 2], ["a", 1]]) {
      const numbers = await call(client, "pick", { choices });
      assert.equal(numbers.isError, true, JSON.stringify(choices));
      assert.match(JSON.stringify(numbers.content), /not a flat form of strings, numbers and booleans/);
    }
  } finally {
    await client.close();
  }
});

Deno.test("the approval gate's parked call asks { approved }; declining ends it unapproved, accepting runs it", async () => {
  const { served, stats: _ } = sealedReplica();
  await using _served = served;
  const client = await v2Client(served.url);
  try {
    const declined = await call(client, "delete_note", {}) as unknown as InputRequired;
    const no = await call(client, "delete_note", {}, {
      requestState: declined.requestState,
      answer: { action: "decline" },
    });
    assert.equal(no.isError, true);
    assert.match(JSON.stringify(no.content), /not approved/);

    const accepted = await call(client, "delete_note", {}) as unknown as InputRequired;
    assert.deepEqual(accepted.inputRequests.answer.params.requestedSchema, {
      type: "object",
      properties: { approved: { type: "boolean" }, reason: { type: "string", maxLength: 1000 } },
      required: ["approved"],
    });
    const yes = await call(client, "delete_note", {}, {
      requestState: accepted.requestState,
      answer: { action: "accept", content: { approved: true } },
    });
    assert.equal(yes.isError, undefined);
    assert.deepEqual(yes.content, [{ type: "text", text: '{"deleted":true}' }]);
  } finally {
    await client.close();
  }
});

Deno.test("a changed requestState, or one for another tool, is refused as a protocol error before anything runs", async () => {
  const { served } = sealedReplica();
  await using _served = served;
  const client = await v2Client(served.url);
  try {
    const parked = await call(client, "publish", { title: "x" }) as unknown as InputRequired;
    const last = parked.requestState.at(-2) === "A" ? "B" : "A";
    const tampered = `${parked.requestState.slice(0, -2)}${last}${parked.requestState.at(-1)}`;
    const answer = { action: "accept", content: { approved: true } };
    await assert.rejects(call(client, "publish", { title: "x" }, { requestState: tampered, answer }), (error) => {
      assert.ok(error instanceof McpProtocolError);
      assert.equal(error.code, -32602);
      return true;
    });
    await assert.rejects(
      call(client, "publish", { title: "x" }, { requestState: "s1.forged.state", answer }),
      McpProtocolError,
    );
    await assert.rejects(
      call(client, "delete_note", {}, { requestState: parked.requestState, answer }),
      McpProtocolError,
    );
  } finally {
    await client.close();
  }
});

Deno.test("a state handed to one authenticated client is refused to another", async () => {
  const tokens: Record<string, string> = { "token-ada": "ada", "token-bob": "bob" };
  const { served } = sealedReplica({
    authorize: (request) => {
      const clientId = tokens[request.headers.get("authorization")?.replace("Bearer ", "") ?? ""];
      return clientId === undefined ? new Response(null, { status: 401 }) : { token: "t", clientId, scopes: [] };
    },
  });
  await using _served = served;
  const ada = await v2Client(served.url, { authorization: "Bearer token-ada" });
  const bob = await v2Client(served.url, { authorization: "Bearer token-bob" });
  try {
    const parked = await call(ada, "publish", { title: "x" }) as unknown as InputRequired;
    const answer = { action: "accept", content: { approved: true } };
    await assert.rejects(
      call(bob, "publish", { title: "x" }, { requestState: parked.requestState, answer }),
      McpProtocolError,
    );
    const done = await call(ada, "publish", { title: "x" }, { requestState: parked.requestState, answer });
    assert.deepEqual(done.structuredContent, { published: true });
  } finally {
    await ada.close();
    await bob.close();
  }
});

Deno.test("a 2025-era client over stdio is asked through elicitation when it declared it", async () => {
  const client = new Client({ name: "v1", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: { approved: true } };
  });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: [
        "run",
        "--lock=tests/deno.lock",
        "--allow-env",
        "--allow-read",
        "--no-prompt",
        new URL("./fixtures/stdio_server.ts", import.meta.url).pathname,
        "sealed",
      ],
      cwd: new URL("../../../", import.meta.url).pathname,
      env: serverEnv(),
    }),
  );
  try {
    const done = await client.callTool({ name: "publish", arguments: { title: "Old client" } });
    assert.deepEqual(done.structuredContent, { published: true });
    assert.deepEqual(asked, ['Publish "Old client"?']);
  } finally {
    await client.close();
  }
});

Deno.test("a 2025-era client over stateless HTTP is told the call needs approval, and never sees the record", async () => {
  const { served } = sealedReplica();
  await using _served = served;
  const client = new Client({ name: "v1", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  await client.connect(new V1HttpTransport(served.url));
  try {
    const result = await client.callTool({ name: "publish", arguments: { title: "x" } });
    assert.equal(result.isError, true);
    assert.match(
      JSON.stringify(result.content),
      /needs a person's approval.*2025 protocol revision over stateless HTTP/,
    );
    assert.doesNotMatch(JSON.stringify(result), /secret draft|requestState/);
  } finally {
    await client.close();
  }
});

Deno.test("a set that could hand out unsealed records is refused when serving starts", () => {
  const info = { name: "x", version: "1.0.0" };
  const gated = new ToolSet({ approve: () => "suspend" });
  assert.throws(() => createMcpFetchHandler(gated, info), /approval gate and no seal/);
  assert.throws(() => serveStdio(gated, info, { transport: {} as never }), /approval gate and no seal/);
  const sealed = new ToolSet({ seal: TEST_SEAL });
  assert.throws(() => createMcpFetchHandler(sealed, info), /options.seal is missing/);
  assert.throws(() => createMcpFetchHandler(new ToolSet(), info, { seal: TEST_SEAL }), /the set has no seal/);
});

Deno.test('with legacy: "sessionful", a 2025-era HTTP client is asked through elicitation in its session', async () => {
  const { served } = sealedReplica({ legacy: "sessionful", maxSessions: 1 });
  await using _served = served;
  const client = new Client({ name: "v1", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { approved: true } }));
  await client.connect(new V1HttpTransport(served.url));
  try {
    const done = await client.callTool({ name: "publish", arguments: { title: "x" } });
    assert.deepEqual(done.structuredContent, { published: true });
    // The bound on sessions: a second 2025-era client is turned away while the first is open.
    const second = new Client({ name: "v1", version: "1.0.0" });
    await assert.rejects(second.connect(new V1HttpTransport(served.url)), /limit of 1 open sessions/);
    // A 2026-07-28 client needs no session and is served beside it.
    const modern = await v2Client(served.url);
    const parked = await call(modern, "publish", { title: "y" }) as unknown as InputRequired;
    assert.equal(parked.resultType, "input_required");
    await modern.close();
  } finally {
    await client.close();
  }
});
