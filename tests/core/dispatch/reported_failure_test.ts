import assert from "node:assert/strict";
import { defineJsonTool, type ExecutionEvent, type TerminalEvent, ToolSet } from "../../../mod.ts";
import { type DynTool, MAX_DIAGNOSTICS, MAX_MODEL_TEXT } from "../../../dyn.ts";

/** A custom tool whose execute() yields exactly this one event. */
function yielding(event: unknown): DynTool {
  const base = defineJsonTool({
    name: "custom",
    description: "Custom.",
    inputSchema: { type: "object" },
    effects: [],
    run: () => ({}),
  });
  return {
    descriptor: base.descriptor,
    async *execute(): AsyncIterable<ExecutionEvent> {
      yield event as ExecutionEvent;
    },
  };
}

async function endOf(event: unknown): Promise<TerminalEvent> {
  return await new ToolSet().register(yielding(event)).call({ id: "1", name: "custom" });
}

function failedWith(failure: Record<string, unknown>) {
  return { type: "failed", failure: { kind: "handler", message: "It broke.", ...failure } };
}

const HUGE = "x".repeat(2 * 1024 * 1024);

Deno.test("ToolSet bounds a custom tool's 2 MB modelText and message like every failure", async () => {
  const end = await endOf(failedWith({ modelText: HUGE, message: HUGE }));
  assert.equal(end.type === "failed" && end.failure.kind, "handler");
  if (end.type !== "failed") return;
  assert.ok(end.failure.modelText.length <= MAX_MODEL_TEXT);
  assert.ok(end.failure.message.length <= 2 * MAX_MODEL_TEXT);
});

Deno.test("ToolSet caps a custom tool's 100,000 diagnostics at MAX_DIAGNOSTICS and counts the rest", async () => {
  const diagnostics = Array.from({ length: 100_000 }, (_, i) => ({ path: `/${i}`, keyword: "type", message: "Bad." }));
  const end = await endOf(failedWith({ kind: "invalid_output", diagnostics }));
  assert.equal(end.type === "failed" && end.failure.kind, "invalid_output");
  if (end.type !== "failed") return;
  assert.equal(end.failure.diagnostics?.length, MAX_DIAGNOSTICS);
  assert.equal(end.failure.omittedDiagnostics, 100_000 - MAX_DIAGNOSTICS);
});

const REFUSED: Record<string, unknown> = {
  "an array modelText": failedWith({ modelText: ["a", "b"] }),
  'uncertain: "no"': failedWith({ uncertain: "no" }),
  'retryable: "yes"': failedWith({ retryable: "yes" }),
  "a numeric code": failedWith({ code: 42 }),
  "a kind that is not a failure kind": failedWith({ kind: "exploded" }),
  "a kind of __proto__": failedWith({ kind: "__proto__" }),
  "a diagnostic that is not a Diagnostic": failedWith({ diagnostics: [{ path: 1, keyword: "type" }] }),
  "diagnostics that are not a list": failedWith({ diagnostics: "many" }),
  "a negative omitted count": failedWith({ diagnostics: [], omittedDiagnostics: -1 }),
  "a failure whose getter throws": {
    type: "failed",
    failure: Object.defineProperty({ kind: "handler", message: "x" }, "modelText", {
      enumerable: true,
      get: () => {
        throw new Error("getter");
      },
    }),
  },
  "a suspension whose reason is 2 MB": { type: "suspended", suspension: { reason: HUGE, resumeSchema: {} } },
  "a suspension whose resume schema is not bounded JSON": {
    type: "suspended",
    suspension: { reason: "Ask", resumeSchema: { type: "object", description: HUGE } },
  },
  "a suspension whose resume schema points outside itself": {
    type: "suspended",
    suspension: { reason: "Ask", resumeSchema: { $ref: "https://example.com/answer.json" } },
  },
  "a suspension whose payload is over the limits": {
    type: "suspended",
    suspension: { reason: "Ask", resumeSchema: {}, payload: { text: HUGE } },
  },
};

for (const [what, event] of Object.entries(REFUSED)) {
  Deno.test(`ToolSet refuses a custom tool's event with ${what} as a bounded contract failure`, async () => {
    const end = await endOf(event);
    assert.equal(end.type === "failed" && end.failure.kind, "contract");
    if (end.type !== "failed") return;
    assert.ok(end.failure.message.length <= 2 * MAX_MODEL_TEXT);
    assert.equal(typeof end.failure.modelText, "string");
    assert.equal(end.failure.uncertain, false);
  });
}
