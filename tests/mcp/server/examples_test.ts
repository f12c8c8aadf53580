// examples/serve_stdio.ts, run as a client spawns it: the demo's tools,
// listed and called over stdio with this module's client. (The Worker
// example runs in workerd in runtimes_test.ts.)

import assert from "node:assert/strict";
import { connectMcpServer } from "../../../mcp.ts";
import { ToolSet } from "../../../mod.ts";
import { serverEnv } from "../_helpers.ts";

Deno.test("examples/serve_stdio.ts serves the demo's tools over stdio", async () => {
  await using demo = await connectMcpServer({
    name: "demo",
    command: Deno.execPath(),
    args: ["run", "--lock=tests/deno.lock", "--allow-env", "--allow-read", "--no-prompt", "examples/serve_stdio.ts"],
    cwd: new URL("../../../", import.meta.url).pathname,
    env: serverEnv(),
    trusted: true,
  });
  const tools = demo.register(new ToolSet());
  assert.deepEqual(tools.descriptors().map((d) => d.name), [
    "demo__calculate",
    "demo__index_docs",
    "demo__read_file",
    "demo__search_web",
    "demo__write_file",
  ]);
  assert.deepEqual(tools.get("demo__write_file")?.descriptor.effects, ["fs.write"]);
  const sum = await tools.call({ id: "1", name: "demo__calculate", arguments: { op: "mul", a: 6, b: 7 } });
  assert.deepEqual(sum.type === "output" && sum.result.output, { value: 42 });
  const missing = await tools.call({ id: "2", name: "demo__read_file", arguments: { path: "nope.md" } });
  assert.match(missing.type === "failed" ? missing.failure.modelText : "", /No file at "nope.md"/);
  // The server's approval gate parks every write until a person answers.
  const write = await tools.call({ id: "3", name: "demo__write_file", arguments: { path: "a.md", text: "hi" } });
  assert.equal(write.type, "suspended");
});
