// Case 6: cold start and size. The time to import the core in a fresh Deno
// process, and the minified + gzipped size of its bundle, beside the same
// for each peer's tool module.

import { gzipSync } from "node:zlib";
import { check, type Mode, ratioRows, type Row, summarise } from "./_harness.ts";
import { PEER_TOOL_MODULES } from "./_peers.ts";

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

/**
 * Bundles an entry, minified, and returns its gzipped size in KB (1,000
 * bytes). Dependencies are bundled unless named in `external`.
 */
async function bundledKb(entry: string, dir: string, external: readonly string[] = []): Promise<number> {
  const out = `${dir}/out.js`;
  await deno([
    "bundle",
    "--quiet",
    "--minify",
    "--platform=browser",
    ...external.map((name) => `--external=${name}`),
    `--config=${CONFIG}`,
    `--lock=${LOCK}`,
    "-o",
    out,
    entry,
  ]);
  const size = gzipSync(await Deno.readFile(out), { level: 9 }).length / 1000;
  await Deno.remove(out);
  return size;
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
    const bundleOf = async (source: string) => {
      await Deno.writeTextFile(entry, source);
      return await bundledKb(entry, dir);
    };
    const sizes: number[] = [
      await bundledKb(new URL("mod.ts", ROOT).pathname, dir),
      await bundleOf(`export { defineTool, ToolSet } from "${CORE}";\n`),
    ];
    for (const [, specifier] of modules.slice(1)) sizes.push(await bundleOf(`export { tool } from "${specifier}";\n`));
    const { imports } = JSON.parse(await Deno.readTextFile(CONFIG));
    const ownCode = await bundledKb(new URL("mod.ts", ROOT).pathname, dir, Object.keys(imports));
    const sizeNames = [
      "ours: mod.ts, every export + its npm dependencies",
      "ours: { defineTool, ToolSet } + its npm dependencies",
      ...modules.slice(1).map(([name]) => `${name}: { tool } + its dependencies`),
    ];
    const group = "6. Size: bundle, minified + gzipped (KB = 1,000 bytes)";
    return [
      ...importRows,
      ...ratioRows(group, sizeNames, sizes.map((kb) => summarise([kb])), "KB", sizeNames[0], {
        [sizeNames[0]]: () => ({ text: "< 30 KB", met: sizes[0] < 30 }),
      }),
      { group, name: "ours: mod.ts alone, npm dependencies left out", stats: summarise([ownCode]), unit: "KB" },
    ];
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
