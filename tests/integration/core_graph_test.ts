// The core (mod.ts and everything it imports) must run on edge runtimes and
// in browsers: no `node:` module and nothing from the MCP SDK in its graph.

import assert from "node:assert/strict";

interface GraphModule {
  readonly specifier: string;
  readonly kind?: string;
  readonly dependencies?: readonly {
    readonly specifier: string;
    /** Where the code comes from; absent for a type-only import. */
    readonly code?: { readonly specifier: string };
    readonly isDynamic?: boolean;
  }[];
}

interface Graph {
  readonly roots: readonly string[];
  readonly modules: readonly GraphModule[];
  readonly npmPackages: Readonly<Record<string, { readonly dependencies?: readonly string[] }>>;
}

const ROOT = new URL("../../", import.meta.url);
const CORE_NPM = ["valibot", "@valibot/to-json-schema", "@cfworker/json-schema", "re2js"];

async function coreGraph(): Promise<Graph> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "mod.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return JSON.parse(new TextDecoder().decode(stdout));
}

/** `npm:/valibot@1.5.0` → `valibot`; `npm:/@scope/name@1.0.0` → `@scope/name`. */
function npmName(specifier: string): string {
  const bare = specifier.replace(/^npm:\/?/, "");
  return bare.slice(0, bare.indexOf("@", 1));
}

/** Every npm package the graph's npm modules pull in, by name. */
function npmClosure(graph: Graph): Set<string> {
  const byName = new Map<string, string[]>();
  for (const id of Object.keys(graph.npmPackages)) {
    const name = npmName(id);
    byName.set(name, [...byName.get(name) ?? [], id]);
  }
  const names = new Set<string>();
  const queue = graph.modules.filter((m) => m.specifier.startsWith("npm:")).flatMap((m) =>
    byName.get(npmName(m.specifier)) ?? []
  );
  const seen = new Set<string>();
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    names.add(npmName(id));
    queue.push(...graph.npmPackages[id]?.dependencies ?? []);
  }
  return names;
}

Deno.test("mod.ts's import graph reaches no node: module and nothing from the MCP SDK", async () => {
  const graph = await coreGraph();
  const specifiers = graph.modules.flatMap((m) => [m.specifier, ...(m.dependencies ?? []).map((d) => d.specifier)]);
  const node = [
    ...specifiers.filter((s) => s.startsWith("node:")),
    ...graph.modules.filter((m) => m.kind === "node").map((m) => m.specifier),
  ];
  assert.deepEqual(node, [], "the core imports node: modules");
  const mcp = specifiers.filter((s) => s.includes("@modelcontextprotocol"));
  assert.deepEqual(mcp, [], "the core imports the MCP SDK");
  const packages = [...npmClosure(graph)];
  assert.deepEqual(packages.filter((name) => name.startsWith("@modelcontextprotocol/")), []);
});

Deno.test("mod.ts's import graph does find the core's npm dependencies, so the check above is not vacuous", async () => {
  const graph = await coreGraph();
  const npm = graph.modules.filter((m) => m.specifier.startsWith("npm:")).map((m) => npmName(m.specifier)).sort();
  assert.deepEqual(npm, [...CORE_NPM].sort());
  const closure = npmClosure(graph);
  for (const name of CORE_NPM) assert.ok(closure.has(name), name);
  assert.ok(graph.modules.some((m) => m.specifier.endsWith("/src/core/dispatch/tool_set.ts")));
});

Deno.test("mod.ts's import graph holds none of the OpenTelemetry entry, the bridges or their peers", async () => {
  const graph = await coreGraph();
  const outside = graph.modules.map((m) => m.specifier).filter((specifier) =>
    /\/src\/(otel|bridges)\//.test(specifier) ||
    /@opentelemetry|npm:\/?(ai|@openai\/agents[^@]*|langchain|@langchain\/[^@]+|@mastra\/[^@]+)@/.test(specifier)
  );
  assert.deepEqual(outside, []);
  assert.ok(graph.modules.some((m) => m.specifier.endsWith("/src/core/dispatch/observer.ts")), "the observer is core");
});

Deno.test("mod.ts loads the compiled validator's closures, @cfworker/json-schema, the format scanners, the host patterns' engine, re2js, the batch runner and the seal's work only through dynamic imports, so a bundle splits them off", async () => {
  const graph = await coreGraph();
  const modules = new Map(graph.modules.map((module) => [module.specifier, module]));
  const loaded = new Set<string>();
  const queue = [...graph.roots];
  for (let specifier = queue.pop(); specifier !== undefined; specifier = queue.pop()) {
    if (loaded.has(specifier)) continue;
    loaded.add(specifier);
    for (const dependency of modules.get(specifier)?.dependencies ?? []) {
      if (dependency.code && !dependency.isDynamic) queue.push(dependency.code.specifier);
    }
  }
  const npm = [...loaded].filter((specifier) => specifier.startsWith("npm:")).map(npmName).sort();
  assert.deepEqual(npm, ["@valibot/to-json-schema", "valibot"]);
  const apart = [
    "/src/core/schema/validator/_build.ts",
    "/src/core/schema/validator/_compile.ts",
    "/src/core/schema/validator/_parts.ts",
    "/src/core/schema/_cfworker.ts",
    "/src/core/schema/validator/_formats.ts",
    "/src/core/schema/validator/_host_patterns.ts",
    "/src/core/schema/validator/_re2.ts",
    "/src/core/dispatch/_batch_runner.ts",
    "/src/core/seal/_sealing.ts",
  ];
  assert.deepEqual([...loaded].filter((specifier) => apart.some((path) => specifier.endsWith(path))), []);
  for (const path of apart) {
    assert.ok(graph.modules.some((module) => module.specifier.endsWith(path)), `${path} is in the graph`);
  }
  assert.ok(loaded.has(graph.roots[0]) && loaded.size > 50, `${loaded.size} modules loaded up front`);
});
