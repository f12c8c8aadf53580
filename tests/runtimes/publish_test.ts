// JSR readiness: the publish dry run passes (no slow types) and ships every
// entrypoint's sources, and the module's sources only.

import assert from "node:assert/strict";

const root = new URL("../../", import.meta.url);

Deno.test("deno publish --dry-run passes, ships every entrypoint and leaves out the test suites, benchmarks, fixtures, examples and build output", async () => {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["publish", "--dry-run", "--allow-dirty"],
    cwd: root,
  }).output();
  const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  assert.equal(code, 0, output);
  const files = [...output.matchAll(/file:\/\/(\S+)/g)].map(([, file]) =>
    decodeURIComponent(file).slice(decodeURIComponent(root.pathname).length)
  );
  const { exports } = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  for (const source of Object.values<string>(exports)) assert.ok(files.includes(source.slice(2)), source);
  assert.ok(files.includes("src/core/dispatch/tool_set.ts"), output);
  const unwanted = files.filter((file) =>
    /^(tests|bench|examples|tasks|\.ci|\.tools|dist|node_modules)\//.test(file) || /_test\.ts$|fixtures\//.test(file)
  );
  assert.deepEqual(unwanted, []);
});
