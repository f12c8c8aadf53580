// The npm build, into dist/ (ignored by git), of every entrypoint deno.json
// exports, so a new entrypoint ships the day it is listed:
// - one ES module a source file (mod.js, dyn.js, ..., src/**/*.js) and its
//   declarations beside it (.d.ts), emitted by TypeScript in one program
//   under `isolatedDeclarations` (the rules of JSR's "no slow types"). A
//   module two entrypoints share is one file both import, never a copy, so a
//   class, a private field or a symbol is the same whichever entrypoint
//   reached it: an MCP server's tools register in the root's ToolSet, and
//   `instanceof` and the nominal ValidatedInvocation hold across entrypoints;
// - dist/package.json: one `exports` entry a deno.json export, with its
//   types; the MCP SDK's packages, the OpenTelemetry API and the bridges'
//   frameworks are optional peer dependencies (so a core user never installs
//   them, and an MCP or OpenTelemetry user shares one copy), every other
//   npm package an entrypoint imports is a dependency, each at the version
//   deno.json's import map pins;
// - README.md and LICENSE.
// It also bundles mod.ts alone, minified with its dependencies inlined by
// Deno's own bundler, split into chunks as an app's bundler splits it, and
// prints what an app that imports only the core loads up front (mod.js and
// the chunks it imports statically, each gzipped) against the 30,000-byte
// target with its largest parts (each source file, each inlined npm
// package), then each chunk loaded only on first need (the fallback
// validator, the format scanners, the batch runner, the seal's work). The
// bundle is measured, not shipped.
//
//   deno run --allow-read --allow-write --allow-run --allow-env tasks/build.ts

import { npmVersion } from "./_npm_version.ts";
import { ts } from "./_typescript.ts";
import { type ChunkImports, chunkImports, loadedWith } from "./_split_bundle.ts";
import { gzipSync } from "node:zlib";

// 30 KB read strictly, as 30,000 bytes: the core with its own JSON Schema validator and the cfworker fallback.
const TARGET_GZIP_BYTES = 30_000;

const root = new URL("../", import.meta.url);
const dist = new URL("dist/", root);
const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));

async function deno(args: readonly string[]): Promise<void> {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [...args],
    cwd: root,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    throw new Error(
      `Cannot build as "deno ${args.join(" ")}" failed: current output is ${new TextDecoder().decode(stderr)}`,
    );
  }
}

function path(url: URL): string {
  return decodeURIComponent(url.pathname);
}

/** The size gzip -9 makes of it: the same measure as the benchmark's size rows. */
function gzippedSize(bytes: Uint8Array): number {
  return gzipSync(bytes, { level: 9 }).byteLength;
}

function kb(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} KB`;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Reads one source map segment's Base64 VLQ fields. */
function decodeSegment(segment: string): number[] {
  const fields: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    shift += 5;
    if (digit & 32) continue;
    fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return fields;
}

/** Where a bundled source came from: an npm package's name, or a path in this repository. */
function partOf(source: string, bundleDir: URL): string {
  const file = path(new URL(source, bundleDir));
  const npm = /\/(?:node_modules|registry\.npmjs\.org)\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
  if (npm) return npm[1];
  return file.startsWith(path(root)) ? file.slice(path(root).length) : file;
}

/**
 * Counts the bundle's characters (its bytes, for minified ASCII) by the part
 * of the code they came from, read from its source map.
 */
function sizeBySource(
  code: string,
  map: { sources: string[]; mappings: string },
  bundleDir: URL,
): Map<string, number> {
  const parts = new Map<string, number>();
  const lengths = code.split("\n").map((line) => line.length);
  let source = 0;
  for (const [index, line] of map.mappings.split(";").entries()) {
    let column = 0;
    let owner: string | undefined;
    let start = 0;
    const credit = (end: number) => {
      if (owner !== undefined) parts.set(owner, (parts.get(owner) ?? 0) + end - start);
    };
    for (const segment of line.split(",")) {
      if (segment === "") continue;
      const [columnDelta, sourceDelta] = decodeSegment(segment);
      column += columnDelta;
      credit(column);
      start = column;
      if (sourceDelta === undefined) {
        owner = undefined;
      } else {
        source += sourceDelta;
        owner = partOf(map.sources[source], bundleDir);
      }
    }
    credit(lengths[index] ?? column);
  }
  return parts;
}

/** A file of the split bundle: its size, gzipped size, parts, and the chunks it imports. */
interface BundleFile extends ChunkImports {
  readonly bytes: number;
  readonly gzipped: number;
  readonly parts: Map<string, number>;
}

/** The `count` largest parts, with their share of `whole`. */
function largest(parts: ReadonlyMap<string, number>, whole: number, count: number): string {
  return [...parts].sort((a, b) => b[1] - a[1]).slice(0, count)
    .map(([part, bytes]) => `${part} ${kb(bytes)} (${Math.round((bytes / whole) * 100)}%)`).join(", ");
}

/** Rewrites a declaration file's relative `.ts` specifiers to `.js` (TypeScript rewrites them in JavaScript only). */
function rewriteSpecifiers(text: string): string {
  let rewritten = "";
  let at = 0;
  for (const specifier of importsOf(text)) {
    if (!specifier.name.startsWith(".")) continue;
    const start = text.indexOf(specifier.name, specifier.pos);
    rewritten += text.slice(at, start) + specifier.name.replace(/\.ts$/, ".js");
    at = start + specifier.name.length;
  }
  return rewritten + text.slice(at);
}

/** A module's real imports, never the examples in its doc comments, which preProcessFile does not read. */
function importsOf(text: string): { name: string; pos: number }[] {
  return ts.preProcessFile(text, true, true).importedFiles.map(({ fileName, pos }) => ({ name: fileName, pos }));
}

/** A module in dist/ by its path without extension (`src/core/dispatch/tool_set`): its `.js` and `.d.ts` together. */
function moduleOf(file: string): string {
  return file.replace(/\.(d\.ts|js|ts)$/, "");
}

/** The npm package a bare specifier names: `@modelcontextprotocol/server/stdio` → `@modelcontextprotocol/server`. */
function packageOf(specifier: string): string {
  return specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
}

/** What a module of dist/ imports: the modules of dist/, and the npm packages (`node:` built-ins are left out). */
interface ModuleImports {
  readonly modules: Set<string>;
  readonly packages: Set<string>;
}

/**
 * Emits every module the entrypoints reach into dist/, as ES modules with
 * their declarations, with TypeScript's own emit under `isolatedDeclarations`.
 * Returns what each emitted module imports.
 */
function emitModules(entries: readonly string[]): Map<string, ModuleImports> {
  const options: ts.CompilerOptions = {
    declaration: true,
    isolatedDeclarations: true,
    allowImportingTsExtensions: true,
    rewriteRelativeImportExtensions: true,
    target: ts.ScriptTarget.ES2022,
    // What the modules use: ES2022, web APIs, and `Symbol.asyncDispose` for the MCP connection's `await using`.
    // Without the last, TypeScript misreads `[Symbol.asyncDispose]()` and declares it twice.
    lib: ["lib.es2022.d.ts", "lib.esnext.disposable.d.ts", "lib.dom.d.ts"],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    rootDir: path(root),
    outDir: path(dist),
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const graph = new Map<string, ModuleImports>();
  host.writeFile = (fileName, emitted) => {
    const text = fileName.endsWith(".d.ts") ? rewriteSpecifiers(emitted) : emitted;
    Deno.mkdirSync(fileName.slice(0, fileName.lastIndexOf("/")), { recursive: true });
    Deno.writeTextFileSync(fileName, text);
    const file = fileName.slice(path(dist).length);
    const module = moduleOf(file);
    const imports = graph.get(module) ?? { modules: new Set(), packages: new Set() };
    graph.set(module, imports);
    for (const { name } of importsOf(text)) {
      if (name.startsWith(".")) {
        imports.modules.add(moduleOf(path(new URL(name, new URL(file, dist))).slice(path(dist).length)));
      } else if (!name.startsWith("node:")) imports.packages.add(packageOf(name));
    }
  };
  const program = ts.createProgram(entries.map((entry) => path(new URL(entry, root))), options, host);
  const { diagnostics } = program.emit();
  const problems = [
    ...program.getOptionsDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getDeclarationDiagnostics(),
    ...diagnostics,
  ];
  if (problems.length > 0) {
    const messages = problems.map((d) => `${d.file?.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
    throw new Error(`Cannot emit the modules: current problems are ${messages.join("; ")}`);
  }
  return graph;
}

/** The npm packages a module of dist/ imports, itself or through the modules it imports. */
function packagesReached(graph: ReadonlyMap<string, ModuleImports>, from: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const queue = [from];
  for (let module = queue.pop(); module !== undefined; module = queue.pop()) {
    if (seen.has(module)) continue;
    seen.add(module);
    const imports = graph.get(module);
    if (imports === undefined) throw new Error(`Cannot read the imports of dist/${module} as it was not emitted`);
    for (const name of imports.packages) packages.add(name);
    queue.push(...imports.modules);
  }
  return packages;
}

/**
 * The range an optional peer accepts: from the pinned version up to the
 * next major. A peer is the user's own copy, shared with their code, and an
 * exact pin would make npm refuse every other version they have.
 */
function peerRange(version: string): string {
  return /^\d+\.\d+\.\d+$/.test(version) ? `^${version}` : version;
}

// The frameworks the bridges serve. A bridge imports none of them (the app hands it the framework's own
// functions), so each is an optional peer from the version its bridge's tests pin.
const FRAMEWORKS = ["ai", "@openai/agents-core", "@langchain/core", "langchain", "@mastra/core"];

async function frameworkPeers(): Promise<[string, string][]> {
  const pins = await Deno.readTextFile(new URL("../tests/framework_deps.ts", import.meta.url));
  return FRAMEWORKS.map((name) => {
    // Package names hold no character a regular expression reads specially.
    const version = pins.match(new RegExp(`"npm:${name}@(\\d+\\.\\d+\\.\\d+)`))?.[1];
    if (version === undefined) {
      throw new Error(`Cannot list ${name} as a peer as tests/framework_deps.ts pins no version of it`);
    }
    return [name, peerRange(version)];
  });
}

/**
 * An entrypoint deno.json exports: its export name ("./mcp/http"), its
 * source ("./mcp_http.ts") and its module in dist/ ("mcp_http").
 */
interface Entrypoint {
  readonly name: string;
  readonly source: string;
  readonly module: string;
}

const entrypoints: Entrypoint[] = Object.entries<string>(
  typeof config.exports === "string" ? { ".": config.exports } : config.exports,
).map(([name, source]) => ({ name, source, module: moduleOf(source.replace(/^\.\//, "")) }));
const rootEntry = entrypoints.find(({ name }) => name === ".");
if (rootEntry === undefined) {
  throw new Error(
    `Cannot build the npm package as deno.json exports no "." entrypoint: current exports are ${
      JSON.stringify(config.exports)
    }`,
  );
}

await Deno.remove(dist, { recursive: true }).catch((error) => {
  if (!(error instanceof Deno.errors.NotFound)) throw error;
});
await Deno.mkdir(dist, { recursive: true });

const graph = emitModules(entrypoints.map(({ source }) => source));
const reached = new Set(entrypoints.flatMap(({ module }) => [...packagesReached(graph, module)]));
// The MCP SDK and the OpenTelemetry API are the user's own copies, shared with their code: optional peers.
const isPeer = (name: string) => name.startsWith("@modelcontextprotocol/") || name === "@opentelemetry/api";
const corePackages = new Set([...reached].filter((name) => !isPeer(name)));
const peerPackages = new Set([...reached].filter(isPeer));
const dependencies = Object.fromEntries([...corePackages].sort().map((name) => [name, npmVersion(name)]));
const peerDependencies = Object.fromEntries(
  [
    ...[...peerPackages].map((name) => [name, peerRange(npmVersion(name))]),
    ...await frameworkPeers(),
  ].sort(([a], [b]) => a < b ? -1 : 1),
);
const manifest = {
  name: config.name,
  version: config.version,
  description: "The typed tool-contract layer for TypeScript agent runtimes.",
  license: config.license,
  type: "module",
  sideEffects: false,
  types: `./${rootEntry.module}.d.ts`,
  exports: Object.fromEntries(
    entrypoints.map(({ name, module }) => [name, { types: `./${module}.d.ts`, default: `./${module}.js` }]),
  ),
  dependencies,
  peerDependencies,
  peerDependenciesMeta: Object.fromEntries(Object.keys(peerDependencies).map((name) => [name, { optional: true }])),
  engines: { node: ">=20" },
};
await Deno.writeTextFile(new URL("package.json", dist), `${JSON.stringify(manifest, null, 2)}\n`);
for (const file of ["README.md", "LICENSE"]) await Deno.copyFile(new URL(file, root), new URL(file, dist));
const listed = (packages: Record<string, string>) =>
  Object.entries(packages).map(([name, version]) => `${name}@${version}`).join(", ") || "none";
console.log(
  `build: ${graph.size} modules with declarations for ${
    entrypoints.map(({ name }) => name).join(", ")
  }; dependencies: ${listed(dependencies)}; optional peer dependencies: ${listed(peerDependencies)}`,
);

// The core measured as an app that imports only the root entrypoint ships it: bundled with code splitting, as an
// app's bundler splits it, so each part the core imports dynamically (the fallback validator, the batch runner, ...)
// is a chunk of its own.
const measured = new URL(`${await Deno.makeTempDir({ prefix: "salvor-core-bundle-" })}/`, "file:///");
try {
  await deno([
    "bundle",
    "--quiet",
    "--platform=browser",
    "--format=esm",
    "--minify",
    "--sourcemap=external",
    "--code-splitting",
    `--outdir=${path(measured)}`,
    rootEntry.source,
  ]);
  const files = new Map<string, BundleFile>();
  for await (const { name } of Deno.readDir(measured)) {
    if (!name.endsWith(".js")) continue;
    const bytes = await Deno.readFile(new URL(name, measured));
    const code = new TextDecoder().decode(bytes);
    const map = JSON.parse(await Deno.readTextFile(new URL(`${name}.map`, measured)));
    files.set(name, {
      bytes: bytes.byteLength,
      gzipped: gzippedSize(bytes),
      parts: sizeBySource(code, map, measured),
      ...chunkImports(code),
    });
  }
  const main = `${moduleOf(rootEntry.source.replace(/^\.\//, ""))}.js`;
  const upFront = loadedWith(files, main);
  const total = (names: Iterable<string>, key: "bytes" | "gzipped") =>
    [...names].reduce((sum, name) => sum + files.get(name)![key], 0);
  const gzipped = total(upFront, "gzipped");
  console.log(
    `build: the core bundle (${rootEntry.source} alone, split as a bundler splits it): what an app loads up front (${
      [...upFront].join(" + ")
    }) is ${kb(total(upFront, "bytes"))} minified, ${
      gzipped.toLocaleString("en")
    } bytes minified + gzipped, each file gzipped (${gzipped < TARGET_GZIP_BYTES ? "within" : "OVER"} the ${
      TARGET_GZIP_BYTES.toLocaleString("en")
    }-byte target)`,
  );
  const parts = new Map<string, number>();
  for (const name of upFront) {
    for (const [part, bytes] of files.get(name)!.parts) parts.set(part, (parts.get(part) ?? 0) + bytes);
  }
  console.log(`build: its largest parts, minified: ${largest(parts, total(upFront, "bytes"), 8)}`);
  for (const name of [...files.keys()].filter((name) => !upFront.has(name)).sort()) {
    const lazy = files.get(name)!;
    console.log(
      `build: loaded on first need, apart: ${name}, ${kb(lazy.bytes)} minified, ${
        lazy.gzipped.toLocaleString("en")
      } bytes minified + gzipped (${largest(lazy.parts, lazy.bytes, 3)})`,
    );
  }
} finally {
  await Deno.remove(measured, { recursive: true });
}
