import assert from "node:assert/strict";
import type { BatchEntry, SuspendedCall } from "../../mod.ts";
import {
  anthropicResults,
  geminiResults,
  openAIChatResults,
  openAIResponsesResults,
  parkedCallText,
} from "../../providers.ts";

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

const ADAPTERS = { openAIChatResults, openAIResponsesResults, anthropicResults, geminiResults } as const;

Deno.test("every result adapter carries a resource given by its uri alone as a line and a warning", () => {
  const entries: BatchEntry[] = [{
    callId: "c1",
    tool: "link_file",
    terminal: { type: "output", result: { content: [{ type: "resource", uri: "file:///tmp/report.bin" }] } },
  }];
  for (const [name, adapter] of Object.entries(ADAPTERS)) {
    const { warnings } = adapter(entries);
    assert.deepEqual(warnings.map((w) => [w.callId, w.path]), [["c1", "/content/0"]], name);
    assert.match(warnings[0].message, /^Left out a resource part, sent a line saying so instead: /, name);
  }
});

Deno.test("every result adapter refuses a malformed entry with its TypeError, and carries a part of an unknown type as a line", () => {
  const malformed: Record<string, unknown> = {
    "a failed end without a failure": { type: "failed" },
    "a failure without a model text": { type: "failed", failure: { kind: "handler" } },
    "an output without a result": { type: "output" },
    "a result whose content is not a list": { type: "output", result: { content: "hi" } },
    "a content part that is not an object": { type: "output", result: { content: [null] } },
    "a parked call without its record": { type: "suspended" },
    "an end of an unknown type": { type: "cancelled" },
  };
  for (const [name, adapter] of Object.entries(ADAPTERS)) {
    for (const [what, terminal] of Object.entries(malformed)) {
      assert.throws(
        () => adapter([{ callId: "c1", tool: "t", terminal } as never]),
        (error: unknown) => error instanceof TypeError && /^Cannot build .* as entry 0 /.test(error.message),
        `${name}: ${what}`,
      );
    }
    const video = { type: "video", data: "AAAA", mimeType: "video/mp4" };
    const { warnings } = adapter([
      { callId: "c1", tool: "t", terminal: { type: "output", result: { content: [video] } } } as never,
    ]);
    assert.deepEqual(warnings.map((w) => w.path), ["/content/0"], name);
  }
});
