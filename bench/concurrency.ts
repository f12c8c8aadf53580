// Case 5: 10,000 calls in flight at once. Every handler waits on one gate
// until all calls have started, so all are live together; then the gate
// opens. Measured: time from the first dispatch to all terminals, and the
// live heap per in-flight call while all wait. Ours against the floor.

import { ToolSet } from "../mod.ts";
import { type Filed, fileTicket, type Ticket, VALID_ARGUMENTS } from "./_ticket.ts";
import { check, liveHeap, type Mode, ratioRows, type Row, summarise } from "./_harness.ts";
import { FLOOR, OURS, ours, oursTool, valibotFloor } from "./typed_dispatch.ts";

const COUNT = 10_000;

type Handler = (input: Ticket) => Promise<Filed>;
type Make = (handler: Handler) => (json: string) => Promise<boolean>;

const MAKERS: readonly (readonly [string, Make])[] = [
  [FLOOR, (handler) => valibotFloor(handler)],
  [OURS, (handler) => ours(new ToolSet().register(oursTool(handler)))],
];

/** One run: all calls in flight, then released. Returns [ms to all terminals, live bytes per call]. */
async function flight(make: Make, measureMemory: boolean): Promise<[number, number]> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => release = resolve);
  let allStarted!: () => void;
  const ready = new Promise<void>((resolve) => allStarted = resolve);
  let started = 0;
  const dispatch = make(async (input) => {
    if (++started === COUNT) allStarted();
    await gate;
    return fileTicket(input);
  });
  const before = measureMemory ? liveHeap() : 0;
  const t0 = performance.now();
  const calls: Promise<boolean>[] = [];
  for (let i = 0; i < COUNT; i++) calls.push(dispatch(VALID_ARGUMENTS));
  await ready;
  const peak = measureMemory ? liveHeap() : 0;
  release();
  const results = await Promise.all(calls);
  const ms = performance.now() - t0;
  check(results.every(Boolean), "a call in flight did not end in an output");
  return [ms, (peak - before) / COUNT];
}

/**
 * Runs case 5. Memory figures need `--v8-flags=--expose-gc` to be exact.
 *
 * @param mode Full or smoke.
 * @returns The rows.
 */
export async function concurrency(mode: Mode): Promise<Row[]> {
  const reps = mode.smoke ? 1 : 5;
  const times = MAKERS.map((): number[] => []);
  const bytes = MAKERS.map((): number[] => []);
  // Interleaved, like every other case.
  for (let rep = 0; rep < reps; rep++) {
    for (let m = 0; m < MAKERS.length; m++) times[m].push((await flight(MAKERS[m][1], false))[0]);
    for (let m = 0; m < MAKERS.length; m++) bytes[m].push((await flight(MAKERS[m][1], true))[1]);
  }
  const names = MAKERS.map(([name]) => name);
  const group = `5. Concurrency, ${COUNT.toLocaleString("en")} calls in flight`;
  return [
    ...ratioRows(`${group}: time to all terminals`, names, times.map(summarise), "ms", FLOOR),
    ...ratioRows(`${group}: live heap per in-flight call`, names, bytes.map(summarise), "B", FLOOR),
  ];
}
