// Case 4: registry scale. Defining and registering 1,000 and 10,000 tools
// (time, retained memory per tool), descriptors() on the large set (first
// call after a change, then repeated), and lookup by name.

import { ToolSet } from "../mod.ts";
import { makeTools } from "./_registry_tools.ts";
import { check, compare, type Mode, type Row, type Stats, summarise } from "./_harness.ts";

const PROBE = new URL("./_registry_heap_probe.ts", import.meta.url).pathname;

/** The heap a fresh process retains per registered tool, measured by the probe. */
async function retainedPerTool(count: number, withPattern: boolean): Promise<number> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--v8-flags=--expose-gc",
      `--lock=${new URL("./deno.lock", import.meta.url).pathname}`,
      PROBE,
      `${count}`,
      withPattern ? "pattern" : "plain",
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  check(code === 0, `the heap probe failed: ${decoder.decode(stderr).slice(-600)}`);
  return JSON.parse(decoder.decode(stdout).trim().split("\n").at(-1)!).bytesPerTool;
}

function timed<T>(work: () => T): [T, number] {
  const started = performance.now();
  const value = work();
  return [value, performance.now() - started];
}

async function scale(count: number, mode: Mode, repeatedAt1k: Stats | undefined): Promise<Row[]> {
  const group = `4. Registry scale, ${count.toLocaleString("en")} tools`;
  const reps = mode.smoke ? 1 : 5;
  const define: number[] = [];
  const register: number[] = [];
  const memory: number[] = [];
  const memoryWithPattern: number[] = [];
  const firstDescriptors: number[] = [];
  let tools = new ToolSet();
  for (let rep = 0; rep < reps; rep++) {
    tools = new ToolSet();
    const [made, defineMs] = timed(() => makeTools(count));
    const [, registerMs] = timed(() => tools.register(...made));
    const [listed, firstMs] = timed(() => tools.descriptors());
    check(tools.size === count && listed.length === count, `the set holds ${tools.size} tools, not ${count}`);
    define.push(defineMs);
    register.push(registerMs);
    memory.push(await retainedPerTool(count, false));
    memoryWithPattern.push(await retainedPerTool(count, true));
    firstDescriptors.push(firstMs);
  }
  const names = [...tools].map((tool) => tool.descriptor.name);
  let next = 0;
  const [repeated, lookup] = await compare([
    { name: "descriptors()", run: () => tools.descriptors() },
    { name: "get(name)", run: () => tools.get(names[next++ % count]) },
  ], mode);
  check(tools.descriptors() === tools.descriptors(), "descriptors() is not cached");
  const ratioTo1k = repeatedAt1k ? repeated.median / repeatedAt1k.median : undefined;
  return [
    {
      group,
      name: "defineJsonTool × N (spec check + schema check; compiled on first use)",
      stats: summarise(define),
      unit: "ms",
    },
    { group, name: "register(...tools), all or none", stats: summarise(register), unit: "ms" },
    {
      group,
      name: "retained heap per tool, a fresh process (defined + registered, held)",
      stats: summarise(memory),
      unit: "B",
    },
    {
      group,
      name: "retained heap per tool, each schema with a pattern (its engine loads apart)",
      stats: summarise(memoryWithPattern),
      unit: "B",
    },
    { group, name: "descriptors(), first call after a change", stats: summarise(firstDescriptors), unit: "ms" },
    {
      group,
      name: "descriptors(), repeated",
      stats: repeated,
      unit: "ns",
      ...(ratioTo1k === undefined ? {} : {
        ratio: ratioTo1k,
        ratioTo: "1,000 tools",
        target: { text: "constant time (≈ 1× the 1,000-tool set)", met: ratioTo1k < 2 },
      }),
    },
    { group, name: "get(name), lookup", stats: lookup, unit: "ns" },
  ];
}

/**
 * Runs case 4. Memory figures need `--v8-flags=--expose-gc` to be exact.
 *
 * @param mode Full or smoke.
 * @returns The rows.
 */
export async function registryScale(mode: Mode): Promise<Row[]> {
  const small = await scale(1_000, mode, undefined);
  const repeatedAt1k = small.find((row) => row.name === "descriptors(), repeated")!.stats;
  const large = await scale(10_000, mode, repeatedAt1k);
  return [...small, ...large];
}
