// The layout is the architecture: each folder of src/ imports only what its
// README says it may, the core's layers point one way, and no files import
// each other in a circle. Read from the source text, so a new file is held
// to the rules the day it is added.

import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);

/** The core's layers, each importing only the ones before it. */
const CORE_LAYERS = ["common", "seal", "schema", "contract", "define", "dispatch"];

interface Rule {
  /** Folders (under src/) this folder's files may import from. */
  readonly folders: readonly string[];
  /** Bare specifiers (npm packages, node: modules) they may import. */
  readonly packages: readonly RegExp[];
  /** Folders (under src/) whose own files, not their subfolders', this folder's files may import. */
  readonly shared?: readonly string[];
}

/** Each framework bridge in src/bridges/ and the packages of its own framework, the only ones it may import. */
const BRIDGES: Readonly<Record<string, readonly RegExp[]>> = {
  "ai_sdk.ts": [/^ai$/, /^@ai-sdk\//],
  "openai_agents.ts": [/^@openai\/agents/],
  "langchain.ts": [/^@langchain\//],
  "mastra.ts": [/^@mastra\//],
};

const CORE_PACKAGES = [/^valibot$/, /^@valibot\/to-json-schema$/, /^@cfworker\/json-schema$/];

function ruleFor(file: string): Rule {
  const [, folder, layer] = file.split("/");
  if (folder === "core") {
    const index = CORE_LAYERS.indexOf(layer);
    assert.ok(index >= 0, `${file} is in no known layer of the core`);
    // re2js is imported behind its translation alone, which the core loads apart, for a pattern that could
    // backtrack for long (tests/integration/core_graph_test.ts holds mod.ts to the core packages, up front or apart).
    const packages = file.endsWith("/validator/_re2.ts") ? [...CORE_PACKAGES, /^re2js$/] : CORE_PACKAGES;
    return { folders: CORE_LAYERS.slice(0, index + 1).map((name) => `core/${name}`), packages };
  }
  if (folder === "providers" || folder === "testing") {
    return { folders: [folder, ...CORE_LAYERS.map((name) => `core/${name}`)], packages: [] };
  }
  // The files at the top of src/mcp/ (reading a long message) serve the client and the server, and import only the
  // core's common helpers.
  if (folder === "mcp" && layer.endsWith(".ts")) return { folders: ["core/common"], packages: [] };
  if (folder === "mcp" && layer === "server") {
    return {
      folders: ["mcp/server", "providers", ...CORE_LAYERS.map((name) => `core/${name}`)],
      packages: [
        /^@modelcontextprotocol\/server(\/|$)/,
        ...(/\/(stdio|_stdio_transport)\.ts$/.test(file) ? [/^node:/] : []),
      ],
      shared: ["mcp"],
    };
  }
  if (folder === "mcp") {
    return {
      folders: [`mcp/${layer}`, "providers", ...CORE_LAYERS.map((name) => `core/${name}`)],
      packages: [/^@modelcontextprotocol\//, ...(file.endsWith("_stdio_transport.ts") ? [/^node:/] : [])],
      shared: ["mcp"],
    };
  }
  if (folder === "otel") {
    return { folders: ["otel", ...CORE_LAYERS.map((name) => `core/${name}`)], packages: [/^@opentelemetry\/api$/] };
  }
  if (folder === "bridges") {
    // The shared files (options, errors, parked outputs) import no package; a bridge, its own framework's alone.
    // The provider projections are the shapes a framework's model is shown; MCP is never a bridge's business.
    return {
      folders: ["bridges", "providers", ...CORE_LAYERS.map((name) => `core/${name}`)],
      packages: BRIDGES[file.slice("src/bridges/".length)] ?? [],
    };
  }
  throw new Error(`Cannot check ${file} as src/${folder}/ has no rule: add one to this test and a README`);
}

function sourceFiles(dir: URL, prefix: string): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = `${prefix}/${entry.name}`;
    if (entry.isDirectory) found.push(...sourceFiles(new URL(`${entry.name}/`, dir), path));
    else if (entry.name.endsWith(".ts")) found.push(path);
  }
  return found.sort();
}

/** The module specifiers a file imports, leaving out the examples in its doc comments. */
function importsOf(text: string): string[] {
  const code = text.split("\n").filter((line) => !/^\s*\*/.test(line)).join("\n");
  return [...code.matchAll(/(?:^|\n)\s*(?:import|export)\b[^"';]*?from\s*"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g)]
    .map((match) => match[1] ?? match[2]);
}

function resolve(file: string, specifier: string): string {
  return new URL(specifier, new URL(file, ROOT)).pathname.slice(ROOT.pathname.length);
}

const files = sourceFiles(new URL("src/", ROOT), "src");
const graph = new Map(files.map((file) => [file, importsOf(Deno.readTextFileSync(new URL(file, ROOT)))]));

Deno.test("each folder of src/ imports only the folders and packages its README allows", () => {
  const broken: string[] = [];
  for (const [file, specifiers] of graph) {
    const rule = ruleFor(file);
    for (const specifier of specifiers) {
      if (specifier.startsWith(".")) {
        const target = resolve(file, specifier);
        const folder = target.split("/").slice(1, -1).join("/");
        const allowed = rule.folders.some((name) => folder === name || folder.startsWith(`${name}/`)) ||
          (rule.shared?.includes(folder) ?? false);
        if (!allowed) broken.push(`${file} -> ${target}`);
      } else if (!rule.packages.some((pattern) => pattern.test(specifier))) {
        broken.push(`${file} -> ${specifier}`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

Deno.test("no bridge imports another bridge", () => {
  const crossed: string[] = [];
  for (const [file, specifiers] of graph) {
    if (!file.startsWith("src/bridges/")) continue;
    for (const specifier of specifiers) {
      const target = specifier.startsWith(".") ? resolve(file, specifier) : "";
      const name = target.slice("src/bridges/".length);
      if (target.startsWith("src/bridges/") && name in BRIDGES && target !== file) crossed.push(`${file} -> ${target}`);
    }
  }
  assert.deepEqual(crossed, []);
  assert.deepEqual(
    Object.keys(BRIDGES).filter((name) => !graph.has(`src/bridges/${name}`)),
    [],
    "the bridges are seen",
  );
});

Deno.test("no files of src/ import each other in a circle", () => {
  const state = new Map<string, "open" | "done">();
  const circles: string[] = [];
  const visit = (file: string, trail: string[]) => {
    if (state.get(file) === "done") return;
    if (state.get(file) === "open") {
      circles.push([...trail.slice(trail.indexOf(file)), file].join(" -> "));
      return;
    }
    state.set(file, "open");
    for (const specifier of graph.get(file) ?? []) {
      if (specifier.startsWith(".")) visit(resolve(file, specifier), [...trail, file]);
    }
    state.set(file, "done");
  };
  for (const file of files) visit(file, []);
  assert.deepEqual(circles, []);
});

Deno.test("the rules see the imports they judge", () => {
  // Guards the reader above: were it to find nothing, every rule would pass.
  const dispatch = graph.get("src/core/dispatch/tool_set.ts") ?? [];
  assert.ok(dispatch.some((specifier) => specifier.endsWith("/define/_checked.ts")), dispatch.join(", "));
  const stdio = graph.get("src/mcp/client/_stdio_transport.ts") ?? [];
  assert.ok(stdio.includes("node:child_process"), stdio.join(", "));
  const server = graph.get("src/mcp/server/fetch_handler.ts") ?? [];
  assert.ok(server.includes("@modelcontextprotocol/server"), server.join(", "));
});
