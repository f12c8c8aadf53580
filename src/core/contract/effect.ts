/**
 * Effects: what a tool may do to the world, and what that implies for
 * retrying and scheduling it.
 *
 * @module
 */

/** The effects this module knows by name, and so classifies. */
export type KnownEffect =
  | "fs.read"
  | "fs.write"
  | "fs.delete"
  | "process.spawn"
  | "network.request"
  | "credential.read"
  | "clipboard.read"
  | "user.interaction"
  | "external.read"
  | "external.mutation";

/**
 * An effect a tool declares: a lowercase, namespaced, dotted name such as
 * `fs.read`. Editors offer the known effects; a custom one (`billing.charge`)
 * is kept but fails closed.
 */
// `string & {}` keeps the known names offered by autocompletion while any string is accepted.
// deno-lint-ignore ban-types
export type Effect = KnownEffect | (string & {});

/** The effects this module knows by name. */
export const KNOWN_EFFECTS: readonly KnownEffect[] = Object.freeze([
  "fs.read",
  "fs.write",
  "fs.delete",
  "process.spawn",
  "network.request",
  "credential.read",
  "clipboard.read",
  "user.interaction",
  "external.read",
  "external.mutation",
]);

/** The known effects that only read. A tool with only these (or none) is read-only. */
export const READ_ONLY_EFFECTS: readonly KnownEffect[] = Object.freeze([
  "fs.read",
  "credential.read",
  "clipboard.read",
  "external.read",
]);

const EFFECT_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;
const known = new Set<Effect>(KNOWN_EFFECTS);
const readOnly = new Set<Effect>(READ_ONLY_EFFECTS);

/**
 * Tells whether a string is a well-formed effect name.
 *
 * @param effect The candidate effect.
 * @returns `true` when it is lowercase, namespaced and dotted.
 *
 * @example A namespaced name is well formed, a bare word is not
 * ```ts
 * import { isWellFormedEffect } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isWellFormedEffect("billing.charge"), true);
 * assert.equal(isWellFormedEffect("Write"), false);
 * ```
 */
export function isWellFormedEffect(effect: unknown): effect is Effect {
  return typeof effect === "string" && EFFECT_PATTERN.test(effect);
}

/**
 * Tells whether an effect is one this module knows by name.
 *
 * @param effect The effect.
 * @returns `true` for the effects in {@linkcode KNOWN_EFFECTS}.
 *
 * @example
 * ```ts
 * import { isKnownEffect } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isKnownEffect("fs.read"), true);
 * assert.equal(isKnownEffect("billing.charge"), false);
 * ```
 */
export function isKnownEffect(effect: Effect): boolean {
  return known.has(effect);
}

/** Whether `a` becomes `b` by one insertion, deletion, substitution or swap of neighbours. */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let start = 0;
  while (start < a.length && a[start] === b[start]) start++;
  if (a.length === b.length) {
    if (a.slice(start + 1) === b.slice(start + 1)) return true;
    return a[start] === b[start + 1] && a[start + 1] === b[start] && a.slice(start + 2) === b.slice(start + 2);
  }
  const [longer, shorter] = a.length > b.length ? [a, b] : [b, a];
  return longer.slice(start + 1) === shorter.slice(start);
}

/**
 * Names the known effect a custom effect was most likely meant to be: an
 * unknown effect one edit away from a known one is almost always a typo,
 * and a typo'd effect fails every call closed as `policy_required`.
 *
 * @param effects The declared effects.
 * @returns One warning for each unknown effect one edit away from a known one.
 *
 * @example A typo is named with its likely intent
 * ```ts
 * import { effectWarnings } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(effectWarnings(["fs.reed", "billing.charge"]), [
 *   'Effect "fs.reed" is not a known effect, so every call fails closed as policy_required: did you mean "fs.read"?',
 * ]);
 * ```
 */
export function effectWarnings(effects: readonly Effect[]): string[] {
  const warnings: string[] = [];
  for (const effect of effects) {
    if (known.has(effect)) continue;
    const intent = KNOWN_EFFECTS.find((name) => oneEditApart(effect, name));
    if (intent !== undefined) {
      warnings.push(
        `Effect "${effect}" is not a known effect, so every call fails closed as policy_required: did you mean "${intent}"?`,
      );
    }
  }
  return warnings;
}

/** Whether retrying a call can repeat its side effect. */
export type Idempotency =
  | "idempotent"
  | "non_idempotent"
  | "externally_reconciled";
/** Who may retry a failed call. */
export type RetryMode = "never" | "explicit_only" | "automatic";
/** What else may run beside a call. */
export type Concurrency = "parallel" | "serial" | "exclusive";

/** How a tool's calls may be retried and scheduled. */
export interface ExecutionSemantics {
  /** Whether repeating a call can repeat its side effect. */
  readonly idempotency: Idempotency;
  /** Who may retry a failed call. */
  readonly retry: RetryMode;
  /** What else may run beside a call. */
  readonly concurrency: Concurrency;
}

/** Salvor's coarse class of a tool. */
export type EffectClass = "read" | "idempotent" | "write";

/** What a scheduler may do with a tool's calls. */
export type SchedulerClass =
  | "policy_required"
  | "exclusive"
  | "serial"
  | "parallel_read_only"
  | "parallel_retry_safe";

/** The parts of a spec that classification reads. */
export interface EffectDeclaration {
  /** The declared effects; an empty list means pure. */
  readonly effects: readonly Effect[];
  /** The declared semantics; defaults follow the effects when absent. */
  readonly semantics?: Partial<ExecutionSemantics>;
}

/**
 * Tells whether every declared effect only reads (an empty list is pure,
 * so it is read-only too).
 *
 * @param effects The declared effects.
 * @returns `true` when no effect writes or is unknown.
 *
 * @example
 * ```ts
 * import { isReadOnly } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isReadOnly([]), true);
 * assert.equal(isReadOnly(["fs.read", "fs.write"]), false);
 * ```
 */
export function isReadOnly(effects: readonly Effect[]): boolean {
  return effects.every((effect) => readOnly.has(effect));
}

/**
 * Derives the semantics a tool gets when it declares none: read-only or
 * pure tools are idempotent, retried automatically and run in parallel;
 * anything else is non-idempotent, never retried and serial. Declared
 * fields win over the defaults.
 *
 * @param declaration The declared effects and any declared semantics.
 * @returns The complete semantics.
 *
 * @example A writer defaults to serial and never retried
 * ```ts
 * import { resolveSemantics } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(resolveSemantics({ effects: ["fs.write"] }), {
 *   idempotency: "non_idempotent",
 *   retry: "never",
 *   concurrency: "serial",
 * });
 * ```
 */
export function resolveSemantics(
  declaration: EffectDeclaration,
): ExecutionSemantics {
  const reads = isReadOnly(declaration.effects);
  const declared = declaration.semantics ?? {};
  // Own fields only: an inherited field (or Object.prototype's) is never a declaration.
  const own = <K extends keyof ExecutionSemantics>(field: K) =>
    Object.hasOwn(declared, field) ? declared[field] : undefined;
  return {
    idempotency: own("idempotency") ?? (reads ? "idempotent" : "non_idempotent"),
    retry: own("retry") ?? (reads ? "automatic" : "never"),
    concurrency: own("concurrency") ?? (reads ? "parallel" : "serial"),
  };
}

/**
 * Reads Salvor's coarse class of a tool: `read` when every effect only
 * reads, `idempotent` when it declares idempotent semantics, else `write`.
 * Unknown effects are never read-only, so they land in `write` unless
 * declared idempotent.
 *
 * @param declaration The tool's spec or descriptor.
 * @returns The coarse class.
 *
 * @example
 * ```ts
 * import { effectClass } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * assert.equal(effectClass({ effects: ["fs.read"] }), "read");
 * assert.equal(
 *   effectClass({ effects: ["fs.write"], semantics: { idempotency: "idempotent" } }),
 *   "idempotent",
 * );
 * assert.equal(effectClass({ effects: ["fs.delete"] }), "write");
 * ```
 */
export function effectClass(declaration: EffectDeclaration): EffectClass {
  if (isReadOnly(declaration.effects)) return "read";
  return resolveSemantics(declaration).idempotency === "idempotent" ? "idempotent" : "write";
}

/**
 * Reads the scheduler class of a tool from its declared effects and
 * semantics. Tool names are never consulted. The order of the rules
 * matters: an unknown effect always needs a policy, whatever else is said.
 *
 * @param declaration The tool's spec or descriptor.
 * @returns The class a runtime uses to decide what may run in parallel.
 *
 * @example A read-only tool runs in parallel
 * ```ts
 * import { schedulerClass } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * assert.equal(schedulerClass({ effects: ["fs.read"] }), "parallel_read_only");
 * assert.equal(schedulerClass({ effects: ["billing.charge"] }), "policy_required");
 * ```
 */
export function schedulerClass(declaration: EffectDeclaration): SchedulerClass {
  if (!declaration.effects.every(isKnownEffect)) return "policy_required";
  const semantics = resolveSemantics(declaration);
  if (semantics.concurrency === "exclusive") return "exclusive";
  if (
    semantics.concurrency === "serial" ||
    semantics.idempotency === "non_idempotent"
  ) {
    return "serial";
  }
  if (isReadOnly(declaration.effects)) return "parallel_read_only";
  if (semantics.retry === "automatic") return "parallel_retry_safe";
  return "serial";
}
