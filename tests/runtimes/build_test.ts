// Guard rails on the npm build (tasks/build.ts), which tests/runtimes/run.ts
// makes before it runs these: dist/ ships every entrypoint deno.json lists
// with its declarations and dependencies, a shared module is one file, no
// module generates code from strings, importing the core touches nothing
// global, and the README it ships names only entrypoints that exist.

import assert from "node:assert/strict";
import { consumer, path } from "./_npm_consumer.ts";

const root = new URL("../../", import.meta.url);
const dist = new URL("dist/", root);
const tools = new URL(".tools/", root);
const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));

async function built(url: URL): Promise<string> {
  try {
    return await Deno.readTextFile(url);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    throw new Error(
      `Cannot test the build as ${
        path(url)
      } is missing: current state is unbuilt; run "deno run -A tests/runtimes/run.ts"`,
    );
  }
}

async function run(
  command: string,
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await new Deno.Command(command, { args: [...args], cwd: root }).output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

async function probe(command: string, args: readonly string[]): Promise<unknown> {
  const { code, stdout, stderr } = await run(command, args);
  assert.equal(code, 0, stderr);
  return JSON.parse(stdout);
}

/** Every file under dist/ whose name ends with `suffix`, by its path in dist/. */
async function distFiles(suffix: string, dir = dist, prefix = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const name = `${prefix}${entry.name}`;
    if (entry.isDirectory) found.push(...await distFiles(suffix, new URL(`${entry.name}/`, dir), `${name}/`));
    else if (name.endsWith(suffix)) found.push(name);
  }
  return found.sort();
}

/** Code generated from strings: what workerd, the edge runtime and a strict CSP refuse. */
// A call of the global eval, not a method that happens to be named eval (re2js defines one) nor a call of it.
const CODE_FROM_STRINGS = [/(?<![\w$.])eval\s*\((?![^()]*\)\s*\{)/, /\bnew\s+Function\b/, /(?<![\w$.])Function\s*\(/];

Deno.test("dist/package.json exports every entrypoint deno.json lists, each an ES module with its declarations", async () => {
  const manifest = JSON.parse(await built(new URL("package.json", dist)));
  assert.equal(manifest.name, config.name);
  assert.equal(manifest.version, config.version);
  assert.equal(manifest.type, "module");
  const expected = Object.fromEntries(
    Object.entries<string>(config.exports).map(([name, source]) => {
      const module = source.replace(/\.ts$/, "");
      return [name, { types: `${module}.d.ts`, default: `${module}.js` }];
    }),
  );
  assert.deepEqual(manifest.exports, expected);
  for (const { types, default: module } of Object.values<Record<string, string>>(manifest.exports)) {
    for (const file of [types, module]) assert.ok((await Deno.stat(new URL(file, dist))).isFile, file);
  }
});

Deno.test("dist/package.json depends on the core's npm packages and takes the MCP SDKs, the OpenTelemetry API and the bridges' frameworks as optional peers", async () => {
  const manifest = JSON.parse(await built(new URL("package.json", dist)));
  const pinned = (name: string) => config.imports[name].slice(`npm:${name}@`.length);
  assert.deepEqual(manifest.dependencies, {
    "@cfworker/json-schema": pinned("@cfworker/json-schema"),
    "@valibot/to-json-schema": pinned("@valibot/to-json-schema"),
    "re2js": pinned("re2js"),
    "valibot": pinned("valibot"),
  });
  // Each framework's range starts at the version its bridge's tests ran: the one tests/deno.lock resolved.
  const { specifiers } = JSON.parse(await Deno.readTextFile(new URL("../deno.lock", import.meta.url)));
  const tested = (name: string) => {
    const locked = Object.keys(specifiers).filter((specifier) => specifier.startsWith(`npm:${name}@`));
    assert.equal(locked.length, 1, `tests/deno.lock resolves one version of ${name}: ${locked.join(", ")}`);
    return `^${locked[0].slice(`npm:${name}@`.length)}`;
  };
  assert.deepEqual(manifest.peerDependencies, {
    "@langchain/core": tested("@langchain/core"),
    "@mastra/core": tested("@mastra/core"),
    "@modelcontextprotocol/client": `^${pinned("@modelcontextprotocol/client")}`,
    "@modelcontextprotocol/server": `^${pinned("@modelcontextprotocol/server")}`,
    "@openai/agents-core": tested("@openai/agents-core"),
    "@opentelemetry/api": `^${pinned("@opentelemetry/api")}`,
    "ai": tested("ai"),
    "langchain": tested("langchain"),
  });
  assert.deepEqual(
    manifest.peerDependenciesMeta,
    Object.fromEntries(Object.keys(manifest.peerDependencies).map((name) => [name, { optional: true }])),
  );
});

Deno.test("each class of the build is declared in one module of dist/, whichever entrypoints reach it", async () => {
  const declaredIn = new Map<string, string[]>();
  for (const file of await distFiles(".js")) {
    for (const [, name] of (await built(new URL(file, dist))).matchAll(/^(?:export )?class (\w+)/gm)) {
      declaredIn.set(name, [...declaredIn.get(name) ?? [], file]);
    }
  }
  assert.deepEqual(declaredIn.get("ToolSet"), ["src/core/dispatch/tool_set.js"]);
  assert.deepEqual(declaredIn.get("ValidatedInvocation"), ["src/core/contract/dyn.js"]);
  assert.deepEqual([...declaredIn].filter(([, files]) => files.length > 1), []);
});

Deno.test("no module of dist/ generates code from strings", async () => {
  const modules = await distFiles(".js");
  assert.ok(modules.length > 6, modules.join(", "));
  for (const file of modules) {
    const code = await built(new URL(file, dist));
    for (const pattern of CODE_FROM_STRINGS) assert.doesNotMatch(code, pattern, file);
  }
});

Deno.test("the workerd bundle, the build and its dependencies inlined, generates no code from strings and imports nothing", async () => {
  const code = await built(new URL("conformance/worker.js", tools));
  for (const pattern of CODE_FROM_STRINGS) assert.doesNotMatch(code, pattern);
  assert.doesNotMatch(code, /\bimport\s*\(|\bfrom\s*["']/);
});

Deno.test("dist/README.md names only entrypoints dist/package.json exports", async () => {
  const manifest = JSON.parse(await built(new URL("package.json", dist)));
  const readme = await built(new URL("README.md", dist));
  const named = new Set([...readme.matchAll(/@salvor\/tools(\/[\w/-]+)?/g)].map(([, sub]) => `.${sub ?? ""}`));
  assert.ok(named.size > 1, [...named].join(", "));
  assert.deepEqual([...named].filter((name) => !(name in manifest.exports)), []);
});

Deno.test("importing the installed package in Node.js changes no global and starts no timer", async () => {
  const report = await probe("node", [path(new URL("import_probe.js", consumer))]);
  assert.deepEqual(report, { module: "@salvor/tools", changed: [], timers: 0 });
});

Deno.test("importing the core source in Deno changes no global and starts no timer", async () => {
  const report = await probe(Deno.execPath(), [
    "run",
    "--no-prompt",
    `--allow-read=${path(root)}`,
    "tests/runtimes/fixtures/import_probe.ts",
  ]);
  assert.deepEqual(report, { module: "@salvor/tools", changed: [], timers: 0 });
});

Deno.test("the import probe reports a module that adds a global and starts a timer", async () => {
  const leaky = new URL("tests/runtimes/fixtures/leaky.ts", root).href;
  const report = await probe(Deno.execPath(), [
    "run",
    "--no-prompt",
    `--allow-read=${path(root)}`,
    "tests/runtimes/fixtures/import_probe.ts",
    leaky,
  ]);
  assert.deepEqual(report, { module: leaky, changed: ["globalThis.leakedByFixture"], timers: 1 });
});
