import assert from "node:assert/strict";
import { defineJsonTool, type TerminalEvent, ToolSet } from "../../../mod.ts";
import { fakeWriteTool } from "../../../testing.ts";

function failureOf(end: TerminalEvent) {
  assert.equal(end.type, "failed", JSON.stringify(end));
  return (end as Extract<TerminalEvent, { type: "failed" }>).failure;
}

/** A payment tool keyed by `request.id`; it answers with the key it was given. */
function payTool() {
  let runs = 0;
  const tool = defineJsonTool({
    name: "pay",
    description: "Pay an invoice.",
    inputSchema: {
      type: "object",
      properties: {
        request: { type: "object", properties: { id: { type: ["string", "number", "null"] } } },
        amount: { type: "number" },
      },
      required: ["amount"],
    },
    effects: ["external.mutation"],
    idempotencyKey: "request.id",
    run: (_input, ctx) => {
      runs++;
      return { key: ctx.idempotencyKey ?? null };
    },
  });
  return { tool, runs: () => runs };
}

async function keyFrom(tools: ToolSet, args: unknown, idempotencyKey?: string): Promise<unknown> {
  const end = await tools.call({ id: "1", name: "pay", arguments: args }, { idempotencyKey });
  assert.equal(end.type, "output", JSON.stringify(end));
  return end.type === "output" ? (end.result.output as { key: unknown }).key : undefined;
}

Deno.test("ToolSet.call() reads the idempotency key at the spec's dotted path and hands it over as ctx.idempotencyKey", async () => {
  const tools = new ToolSet().register(payTool().tool);
  assert.equal(await keyFrom(tools, { request: { id: "inv-7" }, amount: 5 }), "inv-7");
  assert.equal(await keyFrom(tools, { request: { id: 42 }, amount: 5 }), "42");
});

Deno.test("ToolSet.call() uses the caller's idempotency key over the one in the arguments", async () => {
  const tools = new ToolSet().register(payTool().tool);
  assert.equal(await keyFrom(tools, { request: { id: "inv-7" }, amount: 5 }, "caller-key"), "caller-key");
  assert.equal(
    await keyFrom(tools, { amount: 5 }, "caller-key"),
    "caller-key",
    "a caller's key covers a missing field",
  );
});

Deno.test("ToolSet.call() reports a missing or empty idempotency key field as invalid_input at its path, and runs nothing", async () => {
  const { tool, runs } = payTool();
  const tools = new ToolSet().register(tool);
  for (
    const args of [{ amount: 5 }, { request: {}, amount: 5 }, { request: { id: "" }, amount: 5 }, {
      request: { id: null },
      amount: 5,
    }]
  ) {
    const failure = failureOf(await tools.call({ id: "1", name: "pay", arguments: args }));
    assert.equal(failure.kind, "invalid_input", JSON.stringify(args));
    assert.deepEqual(failure.diagnostics?.map((d) => [d.path, d.keyword]), [["/request/id", "required"]]);
    assert.match(failure.modelText, /idempotency key "request\.id"/);
  }
  assert.equal(runs(), 0);
});

Deno.test("a tool without an idempotency key path gets none unless the caller gives one", async () => {
  const write = fakeWriteTool();
  const tools = new ToolSet().register(write);
  const call = { id: "1", name: "fake_write", arguments: { path: "a", text: "b" } };
  await tools.call(call);
  await tools.call(call, { idempotencyKey: "k-1" });
  assert.deepEqual(write.calls.map((c) => c.idempotencyKey), [undefined, "k-1"]);
});

Deno.test("a suspended call keeps its idempotency key in the record and the resumed call reuses it", async () => {
  const write = fakeWriteTool({ idempotencyKey: "requestId", script: [{ kind: "suspend" }, { kind: "succeed" }] });
  const call = { id: "1", name: "fake_write", arguments: { path: "a", text: "b", requestId: "req-9" } };
  const parked = await new ToolSet().register(write).call(call);
  assert.ok(parked.type === "suspended");
  assert.equal(parked.suspended.idempotencyKey, "req-9");
  const record = JSON.parse(JSON.stringify(parked.suspended));
  assert.equal((await new ToolSet().register(write).resume(record, { approved: true })).type, "output");
  assert.deepEqual(write.calls.map((c) => c.idempotencyKey), ["req-9", "req-9"]);
});

Deno.test("an approval record keeps the caller's idempotency key for the resumed call", async () => {
  const write = fakeWriteTool();
  const call = { id: "1", name: "fake_write", arguments: { path: "a", text: "b" } };
  const parked = await new ToolSet({ approve: () => "suspend" }).register(write).call(call, { idempotencyKey: "k-2" });
  assert.ok(parked.type === "suspended");
  assert.equal(parked.suspended.idempotencyKey, "k-2");
  await new ToolSet().register(write).resume(parked.suspended, { approved: true });
  assert.deepEqual(write.calls.map((c) => c.idempotencyKey), ["k-2"]);
});
