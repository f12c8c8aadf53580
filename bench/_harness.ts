// The measuring side of the benchmarks: interleaved sampling, so every
// contender of a case sees the same machine state, and robust statistics.

/** How hard to measure: the full run or the few-iteration smoke run. */
export interface Mode {
  /** True for the smoke run: a few iterations of each case, no timing claims. */
  readonly smoke: boolean;
}

/** One contender of a case: a named function that does one operation. */
export interface Contender {
  readonly name: string;
  /** One operation; may return a promise, which is awaited. */
  readonly run: () => unknown;
}

/** The distribution of one contender's samples, in the sample's unit. */
export interface Stats {
  readonly median: number;
  readonly p75: number;
  readonly p99: number;
  readonly samples: number;
  /** The samples in the order they were taken: round by round, for paired ratios. */
  readonly values: readonly number[];
}

/** The unit a row's numbers are in. */
export type Unit = "ns" | "ms" | "B" | "KB";

/** A target a row is held to: met or missed, reported and never asserted. */
export interface Target {
  readonly text: string;
  readonly met: boolean;
}

/** One line of the results table. */
export interface Row {
  /** The case, e.g. "1. Typed dispatch, valid input". */
  readonly group: string;
  readonly name: string;
  readonly stats: Stats;
  readonly unit: Unit;
  /** This row's median over the reference row's median, when the case has one. */
  readonly ratio?: number;
  /** Names what `ratio` is relative to. */
  readonly ratioTo?: string;
  readonly target?: Target;
}

/** A value that only exists so the optimiser cannot drop the work that made it. */
export let sink: unknown;

/** Sorted quantile with linear interpolation. */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}

/**
 * Summarises samples.
 *
 * @param values The samples, in any order.
 * @returns Median, p75 and p99.
 */
export function summarise(values: readonly number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    p75: quantile(sorted, 0.75),
    p99: quantile(sorted, 0.99),
    samples: sorted.length,
    values: [...values],
  };
}

/** The median of the per-round ratios of two equally long series: drift that hits a round hits both sides. */
function pairedRatio(values: readonly number[], reference: readonly number[]): number {
  if (values.length !== reference.length || values.length === 0) return NaN;
  return summarise(values.map((value, round) => value / reference[round])).median;
}

/**
 * The least warm-up each contender gets in a full run, in operations: typed
 * dispatch reaches its steady ratio only after about 30,000 calls, when the
 * JIT has settled the whole path.
 */
export const MIN_WARMUP_OPS = 30_000;
/** A contender slower than this many ms of warm-up stops warming up by time instead. */
const MAX_WARMUP_MS = 3_000;

/** Runs `count` operations and returns the elapsed ms. */
async function timeBatch(contender: Contender, isAsync: boolean, count: number): Promise<number> {
  const run = contender.run;
  let last: unknown;
  const started = performance.now();
  if (isAsync) {
    for (let i = 0; i < count; i++) last = await run();
  } else {
    for (let i = 0; i < count; i++) last = run();
  }
  const elapsed = performance.now() - started;
  sink = last;
  return elapsed;
}

/**
 * Measures contenders side by side. After a warmup (at least
 * {@linkcode MIN_WARMUP_OPS} operations of each contender, or 3 s of it
 * for a slow one), each round runs one timed batch of every contender, in
 * an order that rotates from round to round, so drift in the machine's
 * state (other load, GC, frequency) spreads over all contenders alike.
 * Each sample is a batch's time per operation, in ns.
 *
 * @param contenders The functions to compare.
 * @param mode Full or smoke.
 * @returns Each contender's stats, in the order given.
 */
export async function compare(contenders: readonly Contender[], mode: Mode): Promise<Stats[]> {
  const warmupMs = mode.smoke ? 5 : 250;
  const sampleMs = mode.smoke ? 1 : 8;
  const rounds = mode.smoke ? 3 : 45;
  const isAsync: boolean[] = [];
  for (const contender of contenders) {
    const first = contender.run();
    isAsync.push(first instanceof Promise);
    sink = await first;
  }
  // Warmup in slices, interleaved, then size each batch to about sampleMs.
  const perOpMs = contenders.map(() => Infinity);
  const warmedOps = contenders.map(() => 0);
  const warmedMs = contenders.map(() => 0);
  const minOps = mode.smoke ? 0 : MIN_WARMUP_OPS;
  const warm = (c: number) => warmedOps[c] >= minOps || warmedMs[c] >= MAX_WARMUP_MS;
  const warmupEnd = performance.now() + warmupMs * contenders.length;
  let count = 1;
  do {
    for (let c = 0; c < contenders.length; c++) {
      const elapsed = await timeBatch(contenders[c], isAsync[c], count);
      perOpMs[c] = Math.min(perOpMs[c], elapsed / count);
      warmedOps[c] += count;
      warmedMs[c] += elapsed;
    }
    count = Math.min(count * 2, 4096);
  } while (performance.now() < warmupEnd || !contenders.every((_, c) => warm(c)));
  const batch = perOpMs.map((ms) => Math.max(1, Math.round(sampleMs / Math.max(ms, 1e-6))));
  const samples: number[][] = contenders.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < contenders.length; k++) {
      const c = (round + k) % contenders.length;
      const elapsed = await timeBatch(contenders[c], isAsync[c], batch[c]);
      samples[c].push((elapsed / batch[c]) * 1e6);
    }
  }
  return samples.map(summarise);
}

/**
 * Builds rows for a compared case, with ratios to a reference contender.
 *
 * @param group The case's label.
 * @param names The contenders' names, in the order of `stats`.
 * @param stats The stats from {@linkcode compare}.
 * @param unit The unit of the stats.
 * @param reference The name of the contender ratios are taken against.
 * @param targets Targets by contender name.
 * @returns The rows.
 */
export function ratioRows(
  group: string,
  names: readonly string[],
  stats: readonly Stats[],
  unit: Unit,
  reference: string,
  targets: Readonly<Record<string, (ratio: number, all: readonly number[]) => Target>> = {},
): Row[] {
  const base = stats[names.indexOf(reference)];
  // Paired where the rounds pair up (every compare() case), else a ratio of medians.
  const ratios = stats.map((s) =>
    s.values.length === base.values.length && s.values.length > 0
      ? pairedRatio(s.values, base.values)
      : s.median / base.median
  );
  return names.map((name, i) => ({
    group,
    name,
    stats: stats[i],
    unit,
    ratio: ratios[i],
    ratioTo: reference,
    ...(targets[name] ? { target: targets[name](ratios[i], ratios) } : {}),
  }));
}

/** Collects garbage when the process runs with `--v8-flags=--expose-gc`. */
function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
}

/** The live heap in bytes, after a full collection. */
export function liveHeap(): number {
  collectGarbage();
  return Deno.memoryUsage().heapUsed;
}

/**
 * Fails loudly when a contender does not behave as the case claims, so a
 * peer that silently skips validation cannot look fast.
 *
 * @param condition What must hold.
 * @param message What went wrong.
 */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`Cannot trust the benchmark as ${message}`);
}
