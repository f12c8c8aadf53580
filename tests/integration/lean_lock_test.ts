// A user's first `deno task demo` downloads what deno.lock records, so the
// root lock holds the runtime packages of deno.json's import map alone;
// test-only packages are pinned in tests/dev_deps.ts and locked in
// tests/deno.lock.

import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);
const readJson = (path: string) => JSON.parse(Deno.readTextFileSync(new URL(path, ROOT)));

Deno.test("the root deno.lock records only the packages deno.json's import map names", () => {
  const mapped = Object.values(readJson("deno.json").imports as Record<string, string>).sort();
  const lock = readJson("deno.lock");
  assert.deepEqual(Object.keys(lock.specifiers).sort(), mapped);
  assert.deepEqual([...lock.workspace.dependencies].sort(), mapped);
});

Deno.test("deno.json's import map holds runtime packages only, never a test-only one", () => {
  const mapped = Object.values(readJson("deno.json").imports as Record<string, string>);
  const testOnly: string[] = [
    "tests/dev_deps.ts",
    "tests/framework_deps.ts",
    "tests/mcp/_sdk_v1_client.ts",
    "tests/mcp/fixtures/_sdk_v1_server.ts",
  ]
    .flatMap((file) => Deno.readTextFileSync(new URL(file, ROOT)).match(/npm:[^"]+/g) ?? []);
  assert.ok(testOnly.length >= 4, "tests/dev_deps.ts pins the test-only packages");
  assert.deepEqual(mapped.filter((specifier) => testOnly.includes(specifier)), []);
});
