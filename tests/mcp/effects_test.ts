import assert from "node:assert/strict";
import { schedulerClass } from "../../mod.ts";
import { mcpToolEffects } from "../../mcp.ts";

Deno.test("mcpToolEffects() fails closed for an untrusted server whatever it claims", () => {
  const claimed = mcpToolEffects({ readOnlyHint: true, openWorldHint: false });
  assert.deepEqual(claimed.effects, ["external.mutation"]);
  assert.deepEqual(claimed.semantics, { idempotency: "non_idempotent", retry: "never", concurrency: "serial" });
  assert.equal(schedulerClass(claimed), "serial");
});

Deno.test("mcpToolEffects() fails closed for a trusted server that sends no annotations", () => {
  assert.deepEqual(mcpToolEffects(undefined, { trusted: true }).effects, ["external.mutation"]);
});

Deno.test("mcpToolEffects() reads readOnlyHint as the read-only external.read for a trusted server", () => {
  const read = mcpToolEffects({ readOnlyHint: true, openWorldHint: false }, { trusted: true });
  assert.deepEqual(read.effects, ["external.read"]);
  assert.equal(schedulerClass(read), "parallel_read_only");
});

Deno.test("mcpToolEffects() adds network.request unless openWorldHint is false", () => {
  const open = mcpToolEffects({ readOnlyHint: true }, { trusted: true });
  assert.deepEqual(open.effects, ["external.read", "network.request"]);
  assert.equal(schedulerClass(open), "parallel_retry_safe");
  assert.deepEqual(mcpToolEffects({ readOnlyHint: true, openWorldHint: true }, { trusted: true }).effects, [
    "external.read",
    "network.request",
  ]);
});

Deno.test("mcpToolEffects() reads destructiveHint as a non-idempotent external.mutation", () => {
  const destructive = mcpToolEffects({ destructiveHint: true, idempotentHint: true, openWorldHint: false }, {
    trusted: true,
  });
  assert.deepEqual(destructive.effects, ["external.mutation"]);
  assert.equal(destructive.semantics?.idempotency, "non_idempotent");
});

Deno.test("mcpToolEffects() reads idempotentHint on a non-destructive tool as idempotent", () => {
  const idempotent = mcpToolEffects({ destructiveHint: false, idempotentHint: true, openWorldHint: false }, {
    trusted: true,
  });
  assert.deepEqual(idempotent.effects, ["external.mutation"]);
  assert.equal(idempotent.semantics?.idempotency, "idempotent");
});

Deno.test("mcpToolEffects() lets the host's override win over trusted annotations", () => {
  const override = { effects: ["fs.write"], semantics: { concurrency: "exclusive" as const } };
  assert.equal(mcpToolEffects({ readOnlyHint: true }, { trusted: true, override }), override);
  assert.equal(mcpToolEffects({ readOnlyHint: true }, { override }), override);
});
