// The server entrypoint on the edge: bundled under the workerd and browser
// conditions, as a Worker's build does, it imports no node: module, so a
// Worker may import @salvor/tools/mcp/server without Node.js compatibility.

import assert from "node:assert/strict";
import { bundle, nodeImports } from "./_runtimes.ts";

for (const condition of ["workerd", "browser"] as const) {
  Deno.test(`the ./mcp/server entrypoint imports no node: module under the ${condition} condition`, async () => {
    const file = await bundle("mcp_server.ts", `mcp-server/entry.${condition}.js`, { condition, format: "esm" });
    const code = await Deno.readTextFile(file);
    assert.match(code, /createMcpFetchHandler/);
    assert.deepEqual(nodeImports(code), []);
  });
}

Deno.test("the check sees node: imports where there are some", async () => {
  const file = await bundle("mcp_server.ts", "mcp-server/entry.node.js", { condition: "node", format: "esm" });
  assert.ok(nodeImports(await Deno.readTextFile(file)).includes("node:process"));
});
