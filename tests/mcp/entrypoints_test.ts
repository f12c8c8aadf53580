// What each entrypoint pulls in: the HTTP-only one no node: module, the
// core neither node: nor the MCP SDK.

import assert from "node:assert/strict";

async function graph(entry: string): Promise<string[]> {
  const { stdout, code } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(`../../${entry}`, import.meta.url).pathname],
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.equal(code, 0);
  const info = JSON.parse(new TextDecoder().decode(stdout)) as {
    modules: { specifier: string; dependencies?: { specifier: string }[] }[];
  };
  return info.modules.flatMap((module) => [
    module.specifier,
    ...(module.dependencies ?? []).map((dependency) => dependency.specifier),
  ]);
}

Deno.test("the ./mcp/http entrypoint imports no node: module", async () => {
  const specifiers = await graph("mcp_http.ts");
  assert.ok(specifiers.some((specifier) => specifier.includes("@modelcontextprotocol/client")));
  assert.deepEqual(specifiers.filter((specifier) => specifier.startsWith("node:")), []);
});

Deno.test("the ./mcp entrypoint reaches node: only for spawning stdio servers", async () => {
  const specifiers = await graph("mcp.ts");
  assert.deepEqual(
    [...new Set(specifiers.filter((specifier) => specifier.startsWith("node:")))].sort(),
    ["node:child_process", "node:process"],
  );
});

Deno.test("the core entrypoint imports neither the MCP SDK nor src/mcp", async () => {
  const specifiers = await graph("mod.ts");
  assert.deepEqual(specifiers.filter((specifier) => /modelcontextprotocol|\/src\/mcp\//.test(specifier)), []);
});
