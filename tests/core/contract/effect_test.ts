import assert from "node:assert/strict";
import { fc } from "../../dev_deps.ts";
import * as v from "valibot";
import {
  defineJsonTool,
  defineTool,
  effectClass,
  type ExecutionSemantics,
  isReadOnly,
  KNOWN_EFFECTS,
  READ_ONLY_EFFECTS,
  schedulerClass,
} from "../../../mod.ts";
import { effectWarnings, isKnownEffect, isWellFormedEffect, resolveSemantics } from "../../../dyn.ts";

const semantics = fc.record({
  idempotency: fc.constantFrom("idempotent", "non_idempotent", "externally_reconciled"),
  retry: fc.constantFrom("never", "explicit_only", "automatic"),
  concurrency: fc.constantFrom("parallel", "serial", "exclusive"),
}, { requiredKeys: [] }) as fc.Arbitrary<Partial<ExecutionSemantics>>;

Deno.test("KNOWN_EFFECTS and READ_ONLY_EFFECTS are the lists DESIGN.md names, frozen", () => {
  assert.deepEqual([...KNOWN_EFFECTS].sort(), [
    "clipboard.read",
    "credential.read",
    "external.mutation",
    "external.read",
    "fs.delete",
    "fs.read",
    "fs.write",
    "network.request",
    "process.spawn",
    "user.interaction",
  ]);
  assert.deepEqual([...READ_ONLY_EFFECTS].sort(), ["clipboard.read", "credential.read", "external.read", "fs.read"]);
  assert.ok(Object.isFrozen(KNOWN_EFFECTS) && Object.isFrozen(READ_ONLY_EFFECTS));
});

Deno.test("isWellFormedEffect() accepts lowercase dotted namespaces and refuses everything else", () => {
  for (const effect of ["fs.read", "billing.charge", "a.b.c", "a_1.b_2"]) {
    assert.equal(isWellFormedEffect(effect), true);
  }
  for (
    const effect of ["Write", "fs", "fs.", ".fs", "fs..read", "FS.read", "1fs.read", "fs.1read", "fs read", "", 7, null]
  ) {
    assert.equal(isWellFormedEffect(effect), false, String(effect));
  }
});

Deno.test("isKnownEffect() knows exactly the known effects", () => {
  for (const effect of KNOWN_EFFECTS) assert.equal(isKnownEffect(effect), true);
  assert.equal(isKnownEffect("billing.charge"), false);
  assert.equal(isKnownEffect("constructor"), false);
});

Deno.test("isReadOnly() holds for pure tools and read-only effects only", () => {
  assert.equal(isReadOnly([]), true);
  assert.equal(isReadOnly(["fs.read", "external.read"]), true);
  assert.equal(isReadOnly(["fs.read", "fs.write"]), false);
  assert.equal(isReadOnly(["billing.read"]), false);
});

Deno.test("resolveSemantics() defaults follow the effects and declared fields win", () => {
  const reader = { idempotency: "idempotent", retry: "automatic", concurrency: "parallel" };
  const writer = { idempotency: "non_idempotent", retry: "never", concurrency: "serial" };
  assert.deepEqual(resolveSemantics({ effects: [] }), reader);
  assert.deepEqual(resolveSemantics({ effects: ["fs.read"] }), reader);
  assert.deepEqual(resolveSemantics({ effects: ["fs.write"] }), writer);
  assert.deepEqual(resolveSemantics({ effects: ["billing.charge"] }), writer);
  assert.deepEqual(
    resolveSemantics({ effects: ["fs.write"], semantics: { idempotency: "idempotent" } }),
    { ...writer, idempotency: "idempotent" },
  );
});

Deno.test("effectClass() is read, idempotent or write", () => {
  assert.equal(effectClass({ effects: [] }), "read");
  assert.equal(effectClass({ effects: ["credential.read"] }), "read");
  assert.equal(effectClass({ effects: ["fs.write"], semantics: { idempotency: "idempotent" } }), "idempotent");
  assert.equal(effectClass({ effects: ["fs.write"] }), "write");
  assert.equal(effectClass({ effects: ["billing.charge"] }), "write");
  assert.equal(effectClass({ effects: ["fs.write"], semantics: { idempotency: "externally_reconciled" } }), "write");
});

Deno.test("schedulerClass() applies its rules in order", () => {
  assert.equal(
    schedulerClass({ effects: ["fs.read", "billing.charge"], semantics: { concurrency: "exclusive" } }),
    "policy_required",
  );
  assert.equal(schedulerClass({ effects: ["fs.read"], semantics: { concurrency: "exclusive" } }), "exclusive");
  assert.equal(schedulerClass({ effects: ["fs.read"], semantics: { concurrency: "serial" } }), "serial");
  assert.equal(schedulerClass({ effects: ["fs.read"], semantics: { idempotency: "non_idempotent" } }), "serial");
  assert.equal(schedulerClass({ effects: [] }), "parallel_read_only");
  assert.equal(schedulerClass({ effects: ["fs.read"] }), "parallel_read_only");
  assert.equal(
    schedulerClass({
      effects: ["fs.write"],
      semantics: { idempotency: "idempotent", retry: "automatic", concurrency: "parallel" },
    }),
    "parallel_retry_safe",
  );
  assert.equal(
    schedulerClass({ effects: ["fs.write"], semantics: { idempotency: "idempotent", concurrency: "parallel" } }),
    "serial",
  );
  assert.equal(schedulerClass({ effects: ["fs.write"] }), "serial");
});

Deno.test("schedulerClass() puts any unknown effect in policy_required, whatever the semantics", () => {
  const unknown = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}\.[a-z][a-z0-9_]{0,6}$/).filter((e) => !isKnownEffect(e));
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...KNOWN_EFFECTS)), unknown, semantics, (known, effect, declared) => {
      assert.equal(schedulerClass({ effects: [...known, effect], semantics: declared }), "policy_required");
    }),
  );
});

Deno.test("schedulerClass() and effectClass() read only effects and semantics, never other fields such as the name", () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...KNOWN_EFFECTS)), semantics, fc.string(), (effects, declared, name) => {
      const bare = { effects, semantics: declared };
      const named = { ...bare, name, description: name, title: name };
      assert.equal(schedulerClass(named), schedulerClass(bare));
      assert.equal(effectClass(named), effectClass(bare));
    }),
  );
});

Deno.test("effectWarnings() names the known effect one edit away, and nothing for custom or known effects", () => {
  const warned = (effect: string) =>
    effectWarnings([effect]).map((warning) => /did you mean "([^"]+)"/.exec(warning)?.[1]);
  assert.deepEqual(warned("fs.reed"), ["fs.read"]); // substitution
  assert.deepEqual(warned("fs.writ"), ["fs.write"]); // deletion
  assert.deepEqual(warned("fs.readd"), ["fs.read"]); // insertion
  assert.deepEqual(warned("fs.raed"), ["fs.read"]); // swap of neighbours
  assert.deepEqual(warned("netwrok.request"), ["network.request"]);
  assert.deepEqual(effectWarnings(["fs.read", "billing.charge", "fs.rename", "fs.rd"]), []);
  for (const known of KNOWN_EFFECTS) assert.deepEqual(effectWarnings([known]), []);
});

Deno.test("defineTool() and defineJsonTool() warn of an effect that is likely a typo", () => {
  const typed = defineTool({
    name: "t",
    description: "T.",
    inputSchema: v.object({}),
    effects: ["fs.reed"],
    run: () => ({}),
  });
  assert.match(typed.warnings[0], /^Effect "fs\.reed" is not a known effect.*did you mean "fs\.read"\?$/);
  const json = defineJsonTool({
    name: "j",
    description: "J.",
    inputSchema: { type: "object" },
    effects: ["fs.delet"],
    run: () => ({}),
  });
  assert.deepEqual(json.warnings.length, 1);
  assert.match(json.warnings[0], /did you mean "fs\.delete"/);
  assert.deepEqual(defineJsonTool({ ...json.descriptor, effects: ["billing.charge"], run: () => ({}) }).warnings, []);
});
