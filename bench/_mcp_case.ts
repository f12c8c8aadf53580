// Case 7: the MCP round trip. bench/mcp_bench.ts holds Deno.bench
// definitions (ours against the bare SDK's Client.callTool, the bare one
// marked `baseline: true` in each group); this runs it with
// `deno bench --json` and turns its results into rows. When the file does
// not exist yet the case is skipped with a note.

import { check, type Mode, type Row } from "./_harness.ts";

const FILE = new URL("./mcp_bench.ts", import.meta.url);
const ROOT = new URL("../", import.meta.url);

interface BenchResult {
  readonly group?: string | null;
  readonly name: string;
  readonly baseline: boolean;
  readonly results: readonly {
    readonly ok?: { readonly n: number; readonly avg: number; readonly p75: number; readonly p99: number };
    readonly failed?: unknown;
  }[];
}

/** Whether the MCP suite exists in this checkout. */
export async function mcpSuiteExists(): Promise<boolean> {
  try {
    return (await Deno.stat(FILE)).isFile;
  } catch {
    return false;
  }
}

/**
 * Runs case 7 when bench/mcp_bench.ts exists.
 *
 * @param mode Full or smoke; the smoke run sets SALVOR_BENCH_SMOKE=1 for the suite.
 * @returns The rows, or none when the suite is missing.
 */
export async function mcpCase(mode: Mode): Promise<Row[]> {
  if (!await mcpSuiteExists()) {
    console.error("case 7 skipped: bench/mcp_bench.ts does not exist yet");
    return [];
  }
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "bench",
      "--json",
      "-A",
      `--config=${new URL("deno.json", ROOT).pathname}`,
      `--lock=${new URL("bench/deno.lock", ROOT).pathname}`,
      FILE.pathname,
    ],
    cwd: ROOT.pathname,
    env: mode.smoke ? { SALVOR_BENCH_SMOKE: "1" } : {},
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stdout);
  check(code === 0, `bench/mcp_bench.ts failed: ${new TextDecoder().decode(stderr).slice(-600)}`);
  const benches: BenchResult[] = JSON.parse(text).benches;
  const rows: Row[] = [];
  for (const bench of benches) {
    const ok = bench.results[0]?.ok;
    check(ok, `the MCP bench "${bench.name}" failed`);
    const group = bench.group ?? "";
    const baseline = benches.find((other) => (other.group ?? "") === group && other.baseline);
    const base = baseline?.results[0]?.ok?.avg;
    const ratio = base === undefined ? undefined : ok.avg / base;
    rows.push({
      group: `7. MCP round trip${group ? `, ${group}` : ""} (deno bench: mean in the median column)`,
      name: bench.name,
      stats: { median: ok.avg, p75: ok.p75, p99: ok.p99, samples: ok.n, values: [] },
      unit: "ns",
      ...(ratio === undefined ? {} : { ratio, ratioTo: baseline!.name }),
      ...(ratio === undefined || bench.baseline ? {} : { target: { text: "≤ 1.15× bare SDK", met: ratio <= 1.15 } }),
    });
  }
  return rows;
}
