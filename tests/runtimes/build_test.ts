// Guard rails on the npm build (tasks/build.ts), which tests/runtimes/run.ts
// makes before it runs these: the bundle is self-contained and generates no
// code from strings, importing the core touches nothing global, and the
// declaration files type a real consumer.

import assert from "node:assert/strict";

const root = new URL("../../", import.meta.url);
const dist = new URL("dist/", root);
const tools = new URL(".tools/", root);

function path(url: URL): string {
  return decodeURIComponent(url.pathname);
}

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

Deno.test("the core bundle holds no eval( or new Function and imports nothing", async () => {
  const code = await built(new URL("mod.js", dist));
  assert.doesNotMatch(code, /\beval\s*\(/);
  assert.doesNotMatch(code, /\bnew\s+Function\b/);
  assert.doesNotMatch(code, /(?<![\w$.])Function\s*\(/);
  assert.doesNotMatch(code, /\bimport\s*\(|\bfrom\s*["']/);
});

Deno.test("dist/package.json exports the bundle and its declarations under the module's name", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  const manifest = JSON.parse(await built(new URL("package.json", dist)));
  assert.equal(manifest.name, config.name);
  assert.equal(manifest.version, config.version);
  assert.equal(manifest.type, "module");
  assert.deepEqual(manifest.exports, {
    ".": { types: "./mod.d.ts", default: "./mod.js" },
    "./dyn": { types: "./dyn.d.ts", default: "./dyn.js" },
  });
  for (const file of ["mod.js", "mod.d.ts", "dyn.js", "dyn.d.ts"]) {
    assert.ok((await Deno.stat(new URL(file, dist))).isFile, file);
  }
});

Deno.test("importing the core bundle in Node.js changes no global and starts no timer", async () => {
  const report = await probe("node", [path(new URL("conformance/import_probe.js", tools))]);
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

Deno.test("the declaration files type a consumer: tsc accepts it, expected errors included", async () => {
  const consumer = new URL("consumer/", tools);
  await Deno.mkdir(consumer, { recursive: true });
  await Deno.copyFile(new URL("tests/runtimes/fixtures/consumer.ts", root), new URL("consumer.ts", consumer));
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: "es2022",
    module: "esnext",
    moduleResolution: "bundler",
    lib: ["es2022", "dom"],
    types: [],
    skipLibCheck: false,
  };
  await Deno.writeTextFile(
    new URL("tsconfig.json", consumer),
    JSON.stringify({ compilerOptions, files: ["consumer.ts"] }),
  );
  const tsc = path(new URL("node_modules/typescript/bin/tsc", tools));
  const { code, stdout, stderr } = await run("node", [tsc, "-p", path(consumer)]);
  assert.equal(stdout + stderr, "");
  assert.equal(code, 0);
});
