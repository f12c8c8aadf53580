// The pacing of lines both stdio transports share: what waits for the lines
// already read runs once they are handed on, every piece of it, in order.

import assert from "node:assert/strict";
import { PacedLines } from "../../src/mcp/_paced_lines.ts";

Deno.test("every wait for the lines read runs once they are handed on, in the order asked, the stream going on first", async () => {
  const events: string[] = [];
  const source = { pause: () => events.push("pause"), resume: () => events.push("resume") };
  const paced = new PacedLines(source, () => {}, () => false);
  let release!: () => void;
  paced.later(() => new Promise<void>((resolve) => release = resolve).then(() => void events.push("line")));
  paced.settled(() => events.push("exit"));
  paced.settled(() => events.push("close"));
  assert.deepEqual(events, ["pause"]);
  release();
  for (let i = 0; i < 20 && events.length < 5; i++) await new Promise((resolve) => setTimeout(resolve, 1));
  assert.deepEqual(events, ["pause", "line", "resume", "exit", "close"]);
  // With nothing waiting, a wait runs at once.
  paced.settled(() => events.push("again"));
  assert.equal(events.at(-1), "again");
});
