import assert from "node:assert/strict";
import type { SuspendedCall } from "../../mod.ts";
import { parkedCallText } from "../../providers.ts";

const parked = (reason: string): SuspendedCall => ({
  v: 1,
  callId: "call_1",
  tool: "ask",
  version: "1.0.0",
  input: {},
  reason,
  resumeSchema: { type: "string" },
  origin: "handler",
});

Deno.test("parkedCallText() ends the reason with one full stop, whatever dots and spaces it ended with", () => {
  for (const reason of ["Which code", "Which code.", "Which code. \n", "Which code\u2003.\u00a0"]) {
    assert.equal(
      parkedCallText(parked(reason)),
      "This call is waiting for a person: Which code. It has not finished yet.",
      JSON.stringify(reason),
    );
  }
  // A question keeps its question mark, with no full stop after it.
  for (const reason of ["Which code?", "Which code? ", "Which code?."]) {
    assert.equal(
      parkedCallText(parked(reason)),
      "This call is waiting for a person: Which code? It has not finished yet.",
      JSON.stringify(reason),
    );
  }
});

Deno.test("parkedCallText() reads a reason with a long run of spaces inside it in time linear in its length", () => {
  // A regular expression anchored at the end retried the run from each of its characters: 2 s for 40,000 spaces.
  const reason = `Why${" ".repeat(1_000_000)}not.`;
  const started = performance.now();
  const text = parkedCallText(parked(reason));
  const ms = performance.now() - started;
  assert.ok(ms < 1_000, `${ms} ms`);
  assert.match(text, /^This call is waiting for a person: Why {10}/);
});
