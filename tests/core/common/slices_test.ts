// The pause between units of long work: free until a slice has run its time,
// and on a clock that stands still while code runs (Cloudflare Workers'), a
// yield every few pauses all the same.

import assert from "node:assert/strict";
import { slices, yields } from "../../../src/core/common/_slices.ts";

/** How many of `count` pauses let a timer set before them run. */
async function yieldsOf(pause: () => Promise<void>, count: number): Promise<number> {
  let yields = 0;
  for (let i = 0; i < count; i++) {
    let fired = false;
    const timer = setTimeout(() => fired = true, 0);
    await pause();
    clearTimeout(timer);
    if (fired) yields++;
  }
  return yields;
}

Deno.test("slices() yields once a slice has run its time, and not before", async () => {
  let time = 0;
  const pause = slices(10, () => time);
  // The clock moves 1 ms a pause: a yield every tenth or so.
  const moving = () => {
    time += 1;
    return pause();
  };
  const yields = await yieldsOf(moving, 100);
  assert.ok(yields >= 8 && yields <= 10, `${yields} yields`);
});

Deno.test("slices() yields every 16 pauses on a clock that stands still while code runs", async () => {
  const pause = slices(10, () => 5);
  assert.equal(await yieldsOf(pause, 160), 10);
});

Deno.test("slices() throws the signal's reason after a yield once aborted", async () => {
  const pause = slices(0, () => 1);
  const controller = new AbortController();
  controller.abort(new Error("stopped"));
  for (let i = 0; i < 15; i++) await pause(controller.signal);
  await assert.rejects(() => pause(controller.signal), { message: "stopped" });
});

Deno.test("yields() costs no promise until a yield is due, then one turn that starts the next slice", async () => {
  let time = 0;
  const due = yields(10, () => time);
  assert.equal(due(), undefined);
  time = 11;
  let fired = false;
  const timer = setTimeout(() => fired = true, 0);
  const turn = due();
  assert.ok(turn instanceof Promise);
  await turn;
  clearTimeout(timer);
  assert.ok(fired, "the turn let a timer set before it run");
  assert.equal(due(), undefined, "a new slice starts after the turn");
});
