// Case 6: cold start and size. The time to import the core in a fresh Deno
// process, and the minified + gzipped size of what its bundle loads up
// front (split into chunks as an app's bundler splits it, so what the core
// imports dynamically is left for first need), beside each peer's tool
// module in one file.

import { gzipSync } from "node:zlib";
import { check, type Mode, ratioRows, type Row, summarise } from "./_harness.ts";
import { PEER_TOOL_MODULES } from "./_peers.ts";
import { type ChunkImports, chunkImports, loadedWith } from "../tasks/_split_bundle.ts";

const ROOT = new URL("../", import.meta.url);
const CONFIG = new URL("deno.json", ROOT).pathname;
const LOCK = new URL("bench/deno.lock", ROOT).pathname;
const PROBE = new URL("./_import_probe.ts", import.meta.url).pathname;
const OURS = "ours: mod.ts";
const CORE = new URL("mod.ts", ROOT).href;

async function deno(args: string[]): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT.pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  check(code === 0, `deno ${args[0]} failed: ${decoder.decode(stderr).slice(-600)}`);
  return decoder.decode(stdout);
}

async function importMs(specifier: string): Promise<number> {
  const out = await deno(["run", "-A", `--config=${CONFIG}`, `--lock=${LOCK}`, PROBE, specifier]);
  return JSON.parse(out.trim().split("\n").at(-1)!).ms;
}

/** What a bundle of an entry loads, in KB (1,000 bytes) minified + gzipped, each file gzipped. */
interface BundleSize {
  /** The entry file and the chunks it imports statically: all of it, in one file. */
  readonly upFront: number;
  /** The chunks only a dynamic `import()` reaches, loaded on first need (none in one file). */
  readonly onFirstNeed: number;
}

/**
 * Bundles an entry, minified: in one file, or split into chunks as an
 * app's bundler splits it. Dependencies are bundled unless named in
 * `external`.
 */
async function bundled(
  entry: string,
  dir: string,
  { split = false, external = [] }: { split?: boolean; external?: readonly string[] } = {},
): Promise<BundleSize> {
  const out = `${dir}/out`;
  await deno([
    "bundle",
    "--quiet",
    "--minify",
    "--platform=browser",
    "--format=esm",
    ...(split ? ["--code-splitting"] : []),
    ...external.map((name) => `--external=${name}`),
    `--config=${CONFIG}`,
    `--lock=${LOCK}`,
    `--outdir=${out}`,
    entry,
  ]);
  const sizes = new Map<string, number>();
  const files = new Map<string, ChunkImports>();
  for await (const { name } of Deno.readDir(out)) {
    if (!name.endsWith(".js")) continue;
    const bytes = await Deno.readFile(`${out}/${name}`);
    sizes.set(name, gzipSync(bytes, { level: 9 }).length / 1000);
    files.set(name, chunkImports(new TextDecoder().decode(bytes)));
  }
  await Deno.remove(out, { recursive: true });
  const upFront = loadedWith(files, entry.slice(entry.lastIndexOf("/") + 1).replace(/\.ts$/, ".js"));
  const sum = (names: string[]) => names.reduce((total, name) => total + sizes.get(name)!, 0);
  return { upFront: sum([...upFront]), onFirstNeed: sum([...sizes.keys()].filter((name) => !upFront.has(name))) };
}

/**
 * Runs case 6.
 *
 * @param mode Full or smoke.
 * @returns The rows.
 */
export async function coldStart(mode: Mode): Promise<Row[]> {
  const modules: [string, string][] = [[OURS, CORE], ...Object.entries(PEER_TOOL_MODULES)];
  // One unmeasured run each fills the module and transpile caches.
  for (const [, specifier] of modules) await importMs(specifier);
  const runs = mode.smoke ? 1 : 10;
  const times = modules.map((): number[] => []);
  for (let run = 0; run < runs; run++) {
    for (let m = 0; m < modules.length; m++) times[m].push(await importMs(modules[m][1]));
  }
  const names = modules.map(([name]) => name);
  const importRows = ratioRows(
    "6. Cold start: import in a fresh Deno process",
    names,
    times.map(summarise),
    "ms",
    OURS,
    { [OURS]: () => ({ text: "< 20 ms", met: summarise(times[0]).median < 20 }) },
  );

  const dir = await Deno.makeTempDir({ prefix: "salvor-bench-" });
  try {
    const entry = `${dir}/entry.ts`;
    const bundleOf = async (source: string, split: boolean) => {
      await Deno.writeTextFile(entry, source);
      return (await bundled(entry, dir, { split })).upFront;
    };
    const core = new URL("mod.ts", ROOT).pathname;
    // Ours split, as the target is read: what an app loads up front. The peers in one file each: split, an
    // app's bundler loads them up front whole and more (what their lazy parts share with the rest), so one
    // file is the smaller and fairer figure for them.
    const split = await bundled(core, dir, { split: true });
    const sizes: number[] = [
      split.upFront,
      await bundleOf(`export { defineTool, ToolSet } from "${CORE}";\n`, true),
    ];
    for (const [, specifier] of modules.slice(1)) {
      sizes.push(await bundleOf(`export { tool } from "${specifier}";\n`, false));
    }
    const { imports } = JSON.parse(await Deno.readTextFile(CONFIG));
    const ownCode = (await bundled(core, dir, { split: true, external: Object.keys(imports) })).upFront;
    const oneFile = (await bundled(core, dir)).upFront;
    const sizeNames = [
      "ours: mod.ts, every export + its npm dependencies, loaded up front",
      "ours: { defineTool, ToolSet } + its npm dependencies, loaded up front",
      ...modules.slice(1).map(([name]) => `${name}: { tool } + its dependencies, one file`),
    ];
    const group = "6. Size: bundle, minified + gzipped (KB = 1,000 bytes)";
    const row = (name: string, kb: number): Row => ({ group, name, stats: summarise([kb]), unit: "KB" });
    return [
      ...importRows,
      ...ratioRows(group, sizeNames, sizes.map((kb) => summarise([kb])), "KB", sizeNames[0], {
        [sizeNames[0]]: () => ({ text: "< 30 KB", met: sizes[0] < 30 }),
      }),
      row(
        "ours: mod.ts, loaded apart on first need (the fallback validator, the format scanners, the batch runner, the seal's work)",
        split.onFirstNeed,
      ),
      row("ours: mod.ts, every export + its npm dependencies, one file (what loads apart included)", oneFile),
      row("ours: mod.ts alone, npm dependencies left out, loaded up front", ownCode),
    ];
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
