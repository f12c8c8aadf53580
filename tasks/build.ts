// The npm build of the core, into dist/ (ignored by git):
// - dist/mod.js: one minified ESM bundle, its dependencies inlined, made by
//   Deno's own bundler;
// - dist/mod.d.ts and dist/src/*.d.ts: TypeScript's declaration emit for
//   mod.ts and the modules it imports, under `isolatedDeclarations` (the
//   rules of JSR's "no slow types"), with `.ts` specifiers made `.js`;
// - dist/package.json, README.md and LICENSE.
// It prints the bundle's minified and gzipped size against the 30 KB target,
// and its largest parts (each source file, each inlined npm package).
//
//   deno run --allow-read --allow-write --allow-run --allow-env tasks/build.ts

import { ts } from "./_typescript.ts";
import { gzipSync } from "node:zlib";

// 30 KB read strictly, as 30,000 bytes: the compiled JSON Schema validator and its cfworker fallback together.
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

/** The npm version deno.json maps a bare specifier to, e.g. "valibot" → "1.5.0". */
function npmVersion(specifier: string): string {
  const mapped: unknown = config.imports?.[specifier];
  const match = typeof mapped === "string" ? /^npm:(@?[^@]+)@(.+)$/.exec(mapped) : null;
  if (!match || match[1] !== specifier) {
    throw new Error(
      `Cannot list "${specifier}" as a dependency of the npm package as deno.json does not map it to an npm package: current value is ${
        JSON.stringify(mapped)
      }`,
    );
  }
  return match[2];
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
function partOf(source: string): string {
  const file = path(new URL(source, dist));
  const npm = /\/(?:node_modules|registry\.npmjs\.org)\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
  if (npm) return npm[1];
  return file.startsWith(path(root)) ? file.slice(path(root).length) : file;
}

/**
 * Counts the bundle's characters (its bytes, for minified ASCII) by the part
 * of the code they came from, read from its source map.
 */
function sizeBySource(code: string, map: { sources: string[]; mappings: string }): Map<string, number> {
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
        owner = partOf(map.sources[source]);
      }
    }
    credit(lengths[index] ?? column);
  }
  return parts;
}

/** Rewrites a declaration file's relative `.ts` specifiers to `.js`, and collects its bare ones. */
function rewriteSpecifiers(text: string, bare: Set<string>): string {
  let rewritten = "";
  let at = 0;
  // preProcessFile reads real imports only, never the examples in doc comments.
  for (const { fileName: specifier, pos } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!specifier.startsWith(".")) {
      bare.add(specifier);
      continue;
    }
    const start = text.indexOf(specifier, pos);
    rewritten += text.slice(at, start) + specifier.replace(/\.ts$/, ".js");
    at = start + specifier.length;
  }
  return rewritten + text.slice(at);
}

/**
 * Emits the declarations of `entry` and of every local module it imports,
 * with TypeScript's own declaration emit under `isolatedDeclarations`.
 * Returns the bare specifiers they import: the npm package's dependencies.
 */
function emitDeclarations(entries: readonly string[]): { files: number; bare: Set<string> } {
  const options: ts.CompilerOptions = {
    declaration: true,
    emitDeclarationOnly: true,
    isolatedDeclarations: true,
    allowImportingTsExtensions: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    rootDir: path(root),
    outDir: path(dist),
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const bare = new Set<string>();
  let files = 0;
  host.writeFile = (fileName, text) => {
    Deno.mkdirSync(fileName.slice(0, fileName.lastIndexOf("/")), { recursive: true });
    Deno.writeTextFileSync(fileName, rewriteSpecifiers(text, bare));
    files++;
  };
  const program = ts.createProgram(entries.map((entry) => path(new URL(entry, root))), options, host);
  const { diagnostics } = program.emit();
  const problems = [...program.getDeclarationDiagnostics(), ...diagnostics];
  if (problems.length > 0) {
    const messages = problems.map((d) => `${d.file?.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
    throw new Error(`Cannot emit the declarations: current problems are ${messages.join("; ")}`);
  }
  return { files, bare };
}

await Deno.remove(dist, { recursive: true }).catch((error) => {
  if (!(error instanceof Deno.errors.NotFound)) throw error;
});
await Deno.mkdir(dist, { recursive: true });

await deno([
  "bundle",
  "--quiet",
  "--platform=browser",
  "--format=esm",
  "--minify",
  "--sourcemap=external",
  "--output=dist/mod.js",
  "mod.ts",
]);
const bundle = await Deno.readFile(new URL("mod.js", dist));
const sourceMap = new URL("mod.js.map", dist);
// The map only serves the size report: it names paths of this machine.
const parts = sizeBySource(new TextDecoder().decode(bundle), JSON.parse(await Deno.readTextFile(sourceMap)));
await Deno.remove(sourceMap);
const gzipped = gzippedSize(bundle);
console.log(
  `build: dist/mod.js ${kb(bundle.byteLength)} minified, ${gzipped.toLocaleString("en")} bytes minified + gzipped (${
    gzipped < TARGET_GZIP_BYTES ? "within" : "OVER"
  } the ${TARGET_GZIP_BYTES.toLocaleString("en")}-byte target)`,
);
const largest = [...parts].sort((a, b) => b[1] - a[1]).slice(0, 8);
console.log(
  `build: largest parts, minified: ${
    largest.map(([part, bytes]) => `${part} ${kb(bytes)} (${Math.round((bytes / bundle.byteLength) * 100)}%)`)
      .join(", ")
  }`,
);

// The plumbing entrypoint, bundled on its own: its size is not the core's, and most users never import it.
await deno(["bundle", "--quiet", "--platform=browser", "--format=esm", "--minify", "--output=dist/dyn.js", "dyn.ts"]);

const { files, bare } = emitDeclarations(["mod.ts", "dyn.ts"]);
const dependencies = Object.fromEntries([...bare].sort().map((name) => [name, npmVersion(name)]));
const manifest = {
  name: config.name,
  version: config.version,
  description: "The typed tool-contract layer for TypeScript agent runtimes.",
  license: config.license,
  type: "module",
  sideEffects: false,
  types: "./mod.d.ts",
  exports: {
    ".": { types: "./mod.d.ts", default: "./mod.js" },
    "./dyn": { types: "./dyn.d.ts", default: "./dyn.js" },
  },
  dependencies,
  engines: { node: ">=20" },
};
await Deno.writeTextFile(new URL("package.json", dist), `${JSON.stringify(manifest, null, 2)}\n`);
for (const file of ["README.md", "LICENSE"]) await Deno.copyFile(new URL(file, root), new URL(file, dist));
console.log(
  `build: ${files} declaration files from mod.ts and dyn.ts; the types import ${
    Object.entries(dependencies).map(([name, version]) => `${name}@${version}`).join(", ") || "nothing"
  }`,
);
