// The npm package as a Node.js user installs it (tests/runtimes/_npm_consumer.ts):
// its declarations type a consumer of every entrypoint under tsc, Node.js
// runs a call through every entrypoint and a step of each bridge with its
// real framework, and the root entrypoint loads neither a `node:` module nor
// the MCP SDK, and the fallback validator only once a schema needs it.

import assert from "node:assert/strict";
import { consumer, installPackage, path } from "./_npm_consumer.ts";

const fixtures = new URL("fixtures/", import.meta.url);

console.log(
  `package: ${await installPackage() ? "installed" : "reused the install of"} the packed dist/ in ${path(consumer)}`,
);
for (const file of ["consumer.ts", "npm_smoke.mjs", "load_log.mjs", "bridge_step.mjs"]) {
  await Deno.copyFile(new URL(file, fixtures), new URL(file, consumer));
}

async function node(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await new Deno.Command("node", { args: [...args], cwd: consumer }).output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

/** Compiles fixtures/consumer.ts with the installed tsc, strict and checking every declaration file. */
async function typeCheck(module: string, moduleResolution: string): Promise<string> {
  const tsconfig = `tsconfig.${moduleResolution}.json`;
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: "es2022",
    module,
    moduleResolution,
    // `esnext.disposable` for the MCP connection's `await using`, as the README's Install section says.
    lib: ["es2022", "esnext.disposable", "dom"],
    // Node's types, as the README's Install section says: the SDK's v2 client names Node's Buffer in its declarations.
    types: ["node"],
    skipLibCheck: false,
  };
  await Deno.writeTextFile(new URL(tsconfig, consumer), JSON.stringify({ compilerOptions, files: ["consumer.ts"] }));
  const { code, stdout, stderr } = await node(["node_modules/typescript/bin/tsc", "-p", tsconfig]);
  return `exit code ${code}${stdout}${stderr}`;
}

Deno.test("tsc type-checks a consumer of every entrypoint under NodeNext resolution, expected errors included", async () => {
  assert.equal(await typeCheck("nodenext", "nodenext"), "exit code 0");
});

Deno.test("tsc type-checks a consumer of every entrypoint under Bundler resolution, expected errors included", async () => {
  assert.equal(await typeCheck("esnext", "bundler"), "exit code 0");
});

Deno.test("Node.js runs a call through every entrypoint, all registered in one root ToolSet", async () => {
  const { code, stdout, stderr } = await node(["npm_smoke.mjs"]);
  assert.equal(code, 0, stderr);
  assert.deepEqual(JSON.parse(stdout), {
    root: { text: "contents of a.txt" },
    dyn: { call: { text: "hi", validated: true }, compileSchema: false },
    providers: { name: "read_file", strict: true },
    testing: { call: { text: "contents of b.txt" }, conformance: true },
    mcp: { call: [{ type: "text", text: "sunny" }], effects: ["external.read"] },
    mcpHttp: { call: [{ type: "text", text: "no notes" }] },
    sameClass: { connection: true, instance: true },
    registered: ["echo", "fake_read", "notes__ask", "read_file", "weather__ask"],
  });
});

Deno.test("Node.js runs a step of each bridge with the real framework and its mock model, traced by ./otel", async () => {
  const { code, stdout, stderr } = await node(["bridge_step.mjs"]);
  assert.equal(code, 0, stderr);
  const { aiSdk, agents, langChain, mastra, spans } = JSON.parse(stdout);
  assert.deepEqual(aiSdk.seen, [
    ["c1", "json"],
    ["c2", "json"],
    ["c3", "error-text"],
    ["c4", "error-text"],
    ["c5", "json"],
  ]);
  assert.deepEqual(aiSdk.invalidKinds, ["invalid_input", "invalid_input"]);
  assert.equal(aiSdk.ranBeforeApproval, 0);
  assert.deepEqual(aiSdk.ran, { add: 1, lookup: 1, remove: 1 }, "no handler ran on invalid input");
  assert.equal(aiSdk.text, "done");
  assert.deepEqual(agents.failures, ["invalid_input", "invalid_input"]);
  assert.deepEqual([agents.interrupted, agents.ranBeforeApproval], [1, 0]);
  assert.deepEqual(agents.ran, { add: 1, lookup: 1, remove: 1 });
  assert.equal(agents.finalOutput, "done");
  assert.deepEqual(langChain.seen, [
    ["c1", "success"],
    ["c2", "success"],
    ["c3", "error"],
    ["c4", "error"],
    ["c5", "success"],
  ]);
  assert.deepEqual([langChain.interrupted, langChain.ranBeforeApproval], [1, 0]);
  assert.deepEqual(langChain.ran, { add: 1, lookup: 1, remove: 1 });
  assert.equal(langChain.text, "done");
  assert.deepEqual(mastra.seen, [
    ["c1", "json"],
    ["c2", "json"],
    ["c3", "error-text"],
    ["c4", "error-text"],
    ["c5", "json"],
  ]);
  assert.deepEqual([mastra.suspended, mastra.ranBeforeApproval], ["suspended", 0]);
  assert.deepEqual(mastra.ran, { add: 1, lookup: 1, remove: 1 });
  assert.equal(mastra.text, "done");
  // The AI SDK step's calls as spans, turn by turn: the calls of one turn run at once and end in either order (each
  // first takes its approval record's key, a digest WebCrypto answers in its own time); then the parked delete, then
  // its resumption.
  const byTurn = [spans.slice(0, 2), spans.slice(2, 4), spans.slice(4)].map((turn) => turn.map(String).sort());
  assert.deepEqual(byTurn, [
    ["execute_tool add,", "execute_tool lookup,"],
    ["execute_tool add,invalid_input", "execute_tool lookup,invalid_input"],
    ["execute_tool remove,", "execute_tool remove,"],
  ]);
  assert.equal(spans.length, 6);
});

/** The npm packages (and files outside any) a Node.js script loads, read by module hooks; all must be ES modules. */
async function packagesLoaded(script: string): Promise<string[]> {
  const log = new URL("load_log.jsonl", consumer);
  await Deno.remove(log).catch(() => {});
  const hooks =
    'data:text/javascript,import { register } from "node:module"; import { pathToFileURL } from "node:url"; register("./load_log.mjs", pathToFileURL("./"));';
  const { code, stderr } = await node(["--import", hooks, "--input-type=module", "-e", script]);
  assert.equal(code, 0, stderr);
  const loaded: { url: string; format: string }[] = (await Deno.readTextFile(log)).trim().split("\n").map((line) =>
    JSON.parse(line)
  );
  // Only ES modules: a CommonJS module's own require() calls would pass the hooks unseen.
  assert.deepEqual([...new Set(loaded.map(({ format }) => format))], ["module"]);
  const packages = new Set(loaded.map(({ url }) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? url));
  return [...packages].sort();
}

Deno.test("importing the root entrypoint in Node.js loads ES modules of the core's packages alone: no node:, no MCP SDK", async () => {
  assert.deepEqual(await packagesLoaded('import "@salvor/tools";'), [
    "@salvor/tools",
    "@valibot/to-json-schema",
    "valibot",
  ]);
});

Deno.test("the root entrypoint loads @cfworker/json-schema in Node.js once a schema needs the fallback validator", async () => {
  const script = `
    import { defineJsonTool, ToolSet } from "@salvor/tools";
    // Draft-04 ignores its \`$id\`, which draft-07 reads: it is not compiled as draft-07, and needs the fallback.
    const inputSchema = { $schema: "http://json-schema.org/draft-04/schema#", $id: "urn:t", type: "object" };
    const tool = defineJsonTool({ name: "t", description: "A tool.", inputSchema, effects: [], run: () => ({}) });
    const end = await new ToolSet().register(tool).call({ id: "1", name: "t", arguments: {} });
    if (end.type !== "output") throw new Error(JSON.stringify(end));
  `;
  assert.deepEqual(await packagesLoaded(script), [
    "@cfworker/json-schema",
    "@salvor/tools",
    "@valibot/to-json-schema",
    "valibot",
  ]);
});
