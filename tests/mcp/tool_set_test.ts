// MCP tools beside native ones: two servers and native tools in one
// ToolSet, all dispatched through the same ToolSet.call.

import assert from "node:assert/strict";
import { defineJsonTool, RegistryError, ToolSet } from "../../mod.ts";
import { connectFixture, livingChildren } from "./_helpers.ts";

const clock = defineJsonTool({
  name: "now",
  description: "The current time.",
  inputSchema: { type: "object" },
  effects: [],
  run: () => ({ iso: "2026-01-01T00:00:00Z" }),
});

Deno.test("two MCP servers and a native tool register into one ToolSet and dispatch through ToolSet.call", async () => {
  await using first = await connectFixture("default", { name: "first" });
  await using second = await connectFixture("pages", { name: "second" });
  const tools = new ToolSet().register(clock);
  first.register(tools);
  second.register(tools);
  assert.equal(tools.size, 1 + first.tools.length + second.tools.length);

  const [native, fromFirst, fromSecond] = await Promise.all([
    tools.call({ id: "1", name: "now" }),
    tools.call({ id: "2", name: "first__echo", arguments: '{"text":"one"}' }),
    tools.call({ id: "3", name: "second__p2_one" }),
  ]);
  assert.deepEqual(native.type === "output" && native.result.output, { iso: "2026-01-01T00:00:00Z" });
  assert.deepEqual(fromFirst.type === "output" && fromFirst.result.content, [{ type: "text", text: "one" }]);
  assert.equal(fromSecond.type === "failed" && fromSecond.failure.kind, "handler");
  assert.match(fromSecond.type === "failed" ? fromSecond.failure.modelText : "", /unknown tool p2_one/);
});

Deno.test("registering a server whose tool name is already taken is a RegistryError and adds nothing", async () => {
  await using first = await connectFixture("pages", { name: "same" });
  await using second = await connectFixture("pages", { name: "same" });
  const tools = new ToolSet();
  first.register(tools);
  assert.throws(() => second.register(tools), RegistryError);
  assert.equal(tools.size, first.tools.length);
});

Deno.test("closing one server fails only its tools as unavailable", async () => {
  await using first = await connectFixture("default", { name: "first" });
  await using second = await connectFixture("default", { name: "second" });
  const tools = new ToolSet().register(clock);
  first.register(tools);
  second.register(tools);
  await first.close();
  const gone = await tools.call({ id: "1", name: "first__echo", arguments: { text: "x" } });
  assert.equal(gone.type === "failed" && gone.failure.kind, "unavailable");
  const alive = await tools.call({ id: "2", name: "second__echo", arguments: { text: "x" } });
  assert.equal(alive.type, "output");
  assert.equal((await tools.call({ id: "3", name: "now" })).type, "output");
});

Deno.test("no child process of this test file survives it", async () => {
  assert.deepEqual(await livingChildren(), []);
});
