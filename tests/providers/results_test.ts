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

Deno.test("parkedCallText() shows a payload JSON cannot carry as far as it can, bounded, with no throw", () => {
  const cycle: Record<string, unknown> = { note: "x" };
  cycle.self = cycle;
  const thrower = () => {
    throw new Error("unreadable");
  };
  const many = Array.from({ length: 1_000 }, (_, i) => BigInt(i));
  const payloads: Record<string, [unknown, string]> = {
    "a BigInt": [12n, "12"],
    "a BigInt inside an object": [{ id: 12n }, "[object Object]"],
    "a cycle": [cycle, "[object Object]"],
    "a toJSON that throws": [{ toJSON: thrower }, "[object Object]"],
    "a getter that throws": [
      Object.defineProperty({}, "secret", { get: thrower, enumerable: true }),
      "[object Object]",
    ],
    "no JSON and no string form": [{ toJSON: thrower, toString: thrower }, "object"],
    "a symbol": [Symbol("choice"), "Symbol(choice)"],
    "a long list of BigInts": [many, `${many.join(",").slice(0, 77)}...`],
  };
  for (const [name, [payload, shown]] of Object.entries(payloads)) {
    assert.equal(
      parkedCallText({ ...parked("Which code"), payload }),
      `This call is waiting for a person: Which code. It has not finished yet. What the person sees: ${shown}`,
      name,
    );
  }
});

Deno.test("parkedCallText() shows a reason that is no string instead of throwing", () => {
  const reasons: Record<string, [unknown, string]> = {
    "a number": [5, "5"],
    "no reason": [undefined, "undefined"],
    "an object": [{ why: "code" }, '{"why":"code"}'],
    "a BigInt": [7n, "7"],
  };
  for (const [name, [reason, shown]] of Object.entries(reasons)) {
    assert.equal(
      parkedCallText({ ...parked(""), reason } as unknown as SuspendedCall),
      `This call is waiting for a person: ${shown}. It has not finished yet.`,
      name,
    );
  }
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

Deno.test("every result adapter answers a parked call whose payload JSON cannot carry with its line", () => {
  const entries: BatchEntry[] = [{
    callId: "c1",
    tool: "ask",
    terminal: { type: "suspended", suspended: { ...parked("Which code"), payload: { id: 12n } } },
  }];
  const line =
    "This call is waiting for a person: Which code. It has not finished yet. What the person sees: [object Object]";
  for (const [name, adapter] of Object.entries(ADAPTERS)) {
    assert.ok(JSON.stringify(adapter(entries)).includes(JSON.stringify(line).slice(1, -1)), name);
  }
});
