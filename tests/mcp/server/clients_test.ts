// Clients other than the SDK's v2 one against this module's server: the
// 2025-era v1 client, and this module's own MCP client, for which a native
// tool served over MCP comes back with the contract it was served with.

import assert from "node:assert/strict";
import { Client, StdioClientTransport, StreamableHTTPClientTransport } from "../_sdk_v1_client.ts";
import { connectMcpServer } from "../../../mcp.ts";
import { defineJsonTool, HandlerError, result, ToolSet } from "../../../mod.ts";
import { serverEnv } from "../_helpers.ts";
import { postJsonRpc, serveHttp } from "./_connect.ts";
import { servedTools } from "./fixtures/tools.ts";

const STDIO_SERVER = new URL("./fixtures/stdio_server.ts", import.meta.url).pathname;
const ROOT = new URL("../../../", import.meta.url).pathname;
const STDIO_ARGS = ["run", "--lock=tests/deno.lock", "--allow-env", "--allow-read", "--no-prompt", STDIO_SERVER];

Deno.test("the 2025-era v1 client lists and calls over stdio and over HTTP", async (t) => {
  const { tools } = servedTools();
  await using served = serveHttp(tools);
  const transports = {
    stdio: () =>
      new StdioClientTransport({
        command: Deno.execPath(),
        args: STDIO_ARGS,
        cwd: ROOT,
        env: { ...serverEnv(), PATH: Deno.env.get("PATH") ?? "" },
      }),
    HTTP: () => new StreamableHTTPClientTransport(served.url),
  };
  for (const [name, transport] of Object.entries(transports)) {
    await t.step(name, async () => {
      const client = new Client({ name: "v1", version: "1.0.0" });
      await client.connect(transport());
      try {
        assert.match(client.getServerVersion()?.name ?? "", /served/);
        const { tools: listed } = await client.listTools();
        assert.deepEqual(listed.map((tool) => tool.name), tools.descriptors().map((d) => d.name));
        assert.equal(listed.find((tool) => tool.name === "delete_note")?.annotations?.destructiveHint, true);
        const result = await client.callTool({ name: "echo", arguments: { text: "from 2025" } });
        assert.deepEqual(result.structuredContent, { text: "from 2025" });
        const failed = await client.callTool({ name: "fail", arguments: {} });
        assert.equal(failed.isError, true);
        const publish = await client.callTool({ name: "publish", arguments: { title: "t" } });
        assert.equal(publish.isError, true);
        assert.match(JSON.stringify(publish.content), /needs a person's approval/);
        assert.doesNotMatch(JSON.stringify(publish), /secret draft/);
      } finally {
        await client.close();
      }
    });
  }
});

Deno.test("this module's client gets a served native tool back with the same contract and the same failures", async (t) => {
  const { tools } = servedTools();
  await using served = serveHttp(tools);
  const sources = {
    HTTP: () => connectMcpServer({ name: "remote", url: served.url, trusted: true }),
    stdio: () =>
      connectMcpServer({
        name: "remote",
        command: Deno.execPath(),
        args: STDIO_ARGS,
        cwd: ROOT,
        env: serverEnv(),
        trusted: true,
      }),
  };
  for (const [name, connect] of Object.entries(sources)) {
    await t.step(name, async () => {
      await using remote = await connect();
      const mirrored = remote.register(new ToolSet());
      for (const native of tools.descriptors()) {
        const back = mirrored.get(`remote__${native.name}`)?.descriptor;
        assert.deepEqual(back?.effects, native.effects, native.name);
        assert.deepEqual(back?.semantics, native.semantics, native.name);
        assert.deepEqual(back?.outputSchema, native.outputSchema, native.name);
      }
      for (
        const [tool, args] of [["fail", {}], ["echo", { text: 1 }], ["charge_card", {}], ["echo", {
          text: "ok",
        }]] as const
      ) {
        const local = await tools.call({ id: "1", name: tool, arguments: args });
        const remoteEnd = await mirrored.call({ id: "1", name: `remote__${tool}`, arguments: args });
        assert.equal(remoteEnd.type, local.type, tool);
        if (local.type === "failed" && remoteEnd.type === "failed") {
          const { kind, retryable, code, uncertain } = local.failure;
          assert.deepEqual(
            { kind: remoteEnd.failure.kind, retryable: remoteEnd.failure.retryable, code: remoteEnd.failure.code },
            { kind, retryable, code },
            tool,
          );
          assert.equal(remoteEnd.failure.uncertain, uncertain, tool);
          // Input and policy failures happen on this side, before the call is sent, so their texts name the mirrored tool.
          if (kind === "handler") assert.equal(remoteEnd.failure.modelText, local.failure.modelText, tool);
        }
        if (local.type === "output" && remoteEnd.type === "output") {
          assert.deepEqual(remoteEnd.result.output, local.result.output);
        }
      }
    });
  }
});

Deno.test("an untrusted server's contract and failure kinds are not believed", async () => {
  const { tools } = servedTools();
  await using served = serveHttp(tools);
  await using remote = await connectMcpServer({ name: "remote", url: served.url });
  const mirrored = remote.register(new ToolSet());
  assert.deepEqual(mirrored.get("remote__read_note")?.descriptor.effects, ["external.mutation"]);
  const end = await mirrored.call({ id: "1", name: "remote__fail", arguments: {} });
  assert.equal(end.type === "failed" && end.failure.kind, "handler");
  assert.equal(end.type === "failed" && end.failure.code, undefined);
  // Its word is taken where it asks for less: the tool said another attempt cannot succeed.
  assert.equal(end.type === "failed" && end.failure.retryable, false);
});

Deno.test("an untrusted server is believed when it says trying again cannot help or may repeat effects, never the reverse", async () => {
  const tools = new ToolSet().register(
    defineJsonTool({
      name: "malformed",
      description: "Writes, then answers with what its output schema refuses.",
      inputSchema: { type: "object" },
      outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      effects: [],
      run: () => ({ n: "one" }),
    }),
    defineJsonTool({
      name: "slow",
      description: "Posts, and takes longer than its timeout.",
      inputSchema: { type: "object" },
      effects: ["network.request"],
      timeoutMs: 20,
      run: () => new Promise(() => {}),
    }),
    defineJsonTool({
      name: "flaky",
      description: "Fails, saying that trying again will help.",
      inputSchema: { type: "object" },
      effects: [],
      run() {
        throw new HandlerError("busy", { retryable: true });
      },
    }),
  );
  await using served = serveHttp(tools);
  for (const trusted of [false, true]) {
    await using remote = await connectMcpServer({ name: "remote", url: served.url, trusted });
    const mirrored = remote.register(new ToolSet());
    const malformed = await mirrored.call({ id: "1", name: "remote__malformed", arguments: {} });
    assert.ok(malformed.type === "failed");
    assert.equal(malformed.failure.kind, trusted ? "invalid_output" : "handler");
    // The tool ran: no attempt is made again (a kind never retried, trusted; untrusted, in the server's word).
    assert.equal(malformed.failure.retryable, trusted ? undefined : false);
    const slow = await mirrored.call({ id: "3", name: "remote__slow", arguments: {} });
    assert.ok(slow.type === "failed");
    assert.equal(slow.failure.kind, trusted ? "timeout" : "handler");
    assert.equal(slow.failure.uncertain, true, "it timed out after it started");
    const flaky = await mirrored.call({ id: "2", name: "remote__flaky", arguments: {} });
    assert.ok(flaky.type === "failed");
    assert.equal(flaky.failure.kind, "handler");
    assert.equal(flaky.failure.retryable, trusted ? true : undefined);
  }
});

Deno.test("a result whose binary content is not base64 is a tool error saying the tool ran, not a protocol error", async () => {
  let runs = 0;
  const parts = {
    image: { type: "image", data: "not base64!", mimeType: "image/png" },
    audio: { type: "audio", data: "@@@@", mimeType: "audio/wav" },
    resource: { type: "resource", uri: "file:///a.bin", blob: "a" },
  } as const;
  const tools = new ToolSet().register(
    ...Object.entries(parts).map(([name, part]) =>
      defineJsonTool({
        name,
        description: "Posts, then answers with binary content.",
        inputSchema: { type: "object" },
        effects: ["network.request"],
        run: () => {
          runs++;
          return result({ content: [part] });
        },
      })
    ),
  );
  await using served = serveHttp(tools);
  for (const [name, field] of [["image", "data"], ["audio", "data"], ["resource", "blob"]]) {
    const { message } = await postJsonRpc(served.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: {} },
    });
    assert.equal(message.error, undefined, `${name}.${field}`);
    assert.deepEqual(message.result, {
      content: [{
        type: "text",
        text: `The tool "${name}" ran but returned a malformed result; it may have had side effects.`,
      }],
      isError: true,
      _meta: { "salvor/failure": { kind: "invalid_output", uncertain: false } },
    });
  }
  // This module's client reads a failure no retry may repeat.
  await using remote = await connectMcpServer({ name: "remote", url: served.url, trusted: true });
  const end = await remote.register(new ToolSet()).call({ id: "1", name: "remote__image", arguments: {} });
  assert.equal(end.type === "failed" && end.failure.kind, "invalid_output");
  assert.equal(runs, 4);
});
