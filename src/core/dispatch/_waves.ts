// The one rule behind plan() and the batch runner: calls that may share a
// wave run together until one that must run alone; that one gets a wave of
// its own and later calls start a new one, so nothing overtakes a call the
// model made first.

import type { SchedulerClass } from "../contract/effect.ts";

/** The scheduler classes whose calls may share a wave. */
export const PARALLEL: ReadonlySet<SchedulerClass> = new Set([
  "parallel_read_only",
  "parallel_retry_safe",
]);

/** Splits items, in order, into waves; `alone` says which must run by themselves. */
export function wavesOf<T>(items: readonly T[], alone: (item: T) => boolean): T[][] {
  const waves: T[][] = [];
  let shared: T[] | undefined;
  for (const item of items) {
    if (alone(item)) {
      waves.push([item]);
      shared = undefined;
    } else {
      if (!shared) waves.push(shared = []);
      shared.push(item);
    }
  }
  return waves;
}
