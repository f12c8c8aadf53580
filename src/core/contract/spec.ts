/**
 * Specs and descriptors: what a tool is, as plain JSON metadata, checked
 * when it is built so a bad spec is never a later surprise.
 *
 * @module
 */

import { type Effect, type ExecutionSemantics, isWellFormedEffect, resolveSemantics } from "./effect.ts";
import { InvalidSpecError, type SpecProblem } from "../common/errors.ts";
import type { JsonSchema } from "../schema/schema.ts";
import { isRecord } from "../common/_is_record.ts";
import { showValue } from "../common/_show_value.ts";
import { checkJsonValue, copyJsonValue, DEFAULT_LIMITS, type LimitProblem, SCHEMA_LIMITS } from "../common/limits.ts";
import { deepFreeze } from "../common/_deep_freeze.ts";
import { messageOfThrown } from "../common/_describe_thrown.ts";

/** Prompt and UI hints: shown to people or appended to prompts, never validated against. */
export interface ToolHints {
  /** Extra guidance a runtime may add to the model's prompt. */
  readonly prompt?: string;
  /** Free-form display hints for a UI (an icon name, a category, ...). */
  readonly ui?: Readonly<Record<string, string>>;
}

/** A tool's identity and contract as its author declares it. */
export interface ToolSpec {
  /** `^[a-zA-Z0-9_-]{1,64}$`, the set every major model provider accepts. */
  readonly name: string;
  /** A semantic version; `1.0.0` when absent. */
  readonly version?: string;
  /** A short human title. */
  readonly title?: string;
  /** What the tool does, for the model. Must not be empty. */
  readonly description: string;
  /** A JSON Schema with `type: "object"` for the arguments. */
  readonly inputSchema: JsonSchema;
  /** A JSON Schema the structured output must meet. */
  readonly outputSchema?: JsonSchema;
  /** What the tool may do to the world, each effect once and at most 64; `[]` means pure. */
  readonly effects: readonly Effect[];
  /** Retry and scheduling semantics; defaults follow the effects. */
  readonly semantics?: Partial<ExecutionSemantics>;
  /** Default call timeout in ms, 1 ms to 24 h. Metadata: the dispatcher enforces it. */
  readonly timeoutMs?: number;
  /** A dotted path into the input whose value is the call's idempotency key. */
  readonly idempotencyKey?: string;
  /** Prompt and UI hints. */
  readonly hints?: ToolHints;
}

/** A checked spec with every default filled in: what runtimes and models are shown. */
export interface ToolDescriptor extends ToolSpec {
  /** The version, `1.0.0` when the spec gave none. */
  readonly version: string;
  /** The complete semantics. */
  readonly semantics: ExecutionSemantics;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
// Semantic Versioning 2.0.0, section 9 and 10 included.
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
const KEY_PATH = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/;
const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;
/** Far more effects than any tool has: a longer list is refused before its items are read, not read item by item. */
export const MAX_EFFECTS: number = 64;
/** The values each semantics field takes; also read by projections that carry semantics. */
export const SEMANTIC_VALUES: Readonly<Record<keyof ExecutionSemantics, readonly string[]>> = {
  idempotency: ["idempotent", "non_idempotent", "externally_reconciled"],
  retry: ["never", "explicit_only", "automatic"],
  concurrency: ["parallel", "serial", "exclusive"],
};

/** Follows a dotted key path through `properties` to check it names an input field. */
function keyPathExists(schema: JsonSchema, path: string): boolean {
  let node: unknown = schema;
  for (const segment of path.split(".")) {
    const properties = isRecord(node) ? node.properties : undefined;
    if (!isRecord(properties) || !Object.hasOwn(properties, segment)) {
      return false;
    }
    node = properties[segment];
  }
  return true;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * The JSON fields of a spec must be bounded JSON before anything walks them:
 * the deep copy and freeze that make the descriptor recurse, and a
 * 200,000-deep schema would overflow the stack there.
 */
const JSON_FIELDS = ["inputSchema", "outputSchema", "hints"] as const;

/**
 * Why a spec's JSON field is refused by its limits (`SCHEMA_LIMITS` for a schema, `DEFAULT_LIMITS` for the hints),
 * with where; `undefined` when it is within them.
 *
 * @param field The field.
 * @param value Its value, present.
 * @returns The problem as a spec problem, or `undefined`.
 */
export function unboundedField(field: (typeof JSON_FIELDS)[number], value: unknown): SpecProblem | undefined {
  const problem = checkJsonValue(value, limitsOf(field));
  return problem && asSpecProblem(field, problem);
}

function isJsonField(field: keyof ToolSpec): field is (typeof JSON_FIELDS)[number] {
  return (JSON_FIELDS as readonly string[]).includes(field);
}

/** The limits a JSON field of a spec is held to. */
function limitsOf(field: (typeof JSON_FIELDS)[number]) {
  return field === "hints" ? DEFAULT_LIMITS : SCHEMA_LIMITS;
}

function asSpecProblem(field: (typeof JSON_FIELDS)[number], problem: LimitProblem): SpecProblem {
  return {
    path: `/${field}${problem.path}`,
    message: `Cannot use the ${field} as it is not bounded JSON: ${problem.message}`,
  };
}

/**
 * What a spec's fields are refused for. `unread` holds the problems found as the fields were read and copied; the
 * fields it refuses are absent from `spec` and not checked again.
 */
function specProblems(spec: ToolSpec, unread: readonly SpecProblem[] = []): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const refuse = (path: string, message: string) => problems.push({ path, message });
  if (!isRecord(spec)) {
    refuse(
      "",
      `Cannot build a tool spec as a spec must be an object: current value is ${showValue(spec)}`,
    );
    return problems;
  }
  const refused = new Set(unread.map((problem) => problem.path.split("/")[1]));
  const open = (field: keyof ToolSpec) => !refused.has(field);
  if (open("name") && (typeof spec.name !== "string" || !NAME.test(spec.name))) {
    refuse(
      "/name",
      `Cannot use the name as it must match ${NAME.source}: current value is ${showValue(spec.name)}`,
    );
  }
  if (
    open("version") && spec.version !== undefined &&
    (typeof spec.version !== "string" || !SEMVER.test(spec.version))
  ) {
    refuse(
      "/version",
      `Cannot use the version as it must be semver like 1.2.3: current value is ${showValue(spec.version)}`,
    );
  }
  if (open("title") && spec.title !== undefined && typeof spec.title !== "string") {
    refuse(
      "/title",
      `Cannot use the title as it must be a string: current value is ${showValue(spec.title)}`,
    );
  }
  if (open("description") && (typeof spec.description !== "string" || spec.description.trim() === "")) {
    refuse(
      "/description",
      `Cannot use the description as a model needs a non-empty one: current value is ${showValue(spec.description)}`,
    );
  }
  if (open("inputSchema") && (!isRecord(spec.inputSchema) || spec.inputSchema.type !== "object")) {
    refuse(
      "/inputSchema",
      `Cannot use the input schema as it must be a JSON Schema with type "object": current value is ${
        showValue(spec.inputSchema)
      }`,
    );
  }
  if (
    spec.outputSchema !== undefined && !isRecord(spec.outputSchema) &&
    typeof spec.outputSchema !== "boolean"
  ) {
    refuse(
      "/outputSchema",
      `Cannot use the output schema as it must be a JSON Schema: current value is ${showValue(spec.outputSchema)}`,
    );
  }
  if (!open("effects")) {
    // Refused as it was read.
  } else if (!Array.isArray(spec.effects)) {
    refuse(
      "/effects",
      `Cannot use the effects as they must be a list ([] for pure): current value is ${showValue(spec.effects)}`,
    );
  } else {
    const seen = new Set<string>();
    spec.effects.forEach((effect, i) => {
      if (!isWellFormedEffect(effect)) {
        refuse(
          `/effects/${i}`,
          `Cannot use the effect as it must be lowercase, namespaced and dotted like "fs.read": current value is ${
            showValue(effect)
          }`,
        );
      } else if (seen.has(effect)) {
        refuse(
          `/effects/${i}`,
          `Cannot use the effect as it is listed twice: current value is ${showValue(effect)}`,
        );
      } else {
        seen.add(effect);
      }
    });
  }
  for (const problem of unread) refuse(problem.path, problem.message);
  if (open("semantics") && spec.semantics !== undefined) {
    if (!isPlainRecord(spec.semantics)) {
      // An object with another prototype could hand over inherited fields the checks below never see.
      refuse(
        "/semantics",
        `Cannot use the semantics as they must be a plain object: current value is ${showValue(spec.semantics)}`,
      );
    } else {
      for (const [field, value] of Object.entries(spec.semantics)) {
        const allowed = Object.hasOwn(SEMANTIC_VALUES, field)
          ? SEMANTIC_VALUES[field as keyof ExecutionSemantics]
          : undefined;
        if (!allowed) {
          refuse(
            `/semantics/${field}`,
            `Cannot use the semantics field as it is unknown: current value is ${showValue(field)}`,
          );
        } else if (value !== undefined && !allowed.includes(value as string)) {
          refuse(
            `/semantics/${field}`,
            `Cannot use the ${field} as it must be one of ${allowed.join(", ")}: current value is ${showValue(value)}`,
          );
        }
      }
    }
  }
  if (Array.isArray(spec.effects) && problems.length === 0) {
    const semantics = resolveSemantics(spec);
    if (
      semantics.idempotency === "non_idempotent" &&
      semantics.retry === "automatic"
    ) {
      refuse(
        "/semantics/retry",
        `Cannot retry automatically as the tool is non_idempotent: a retry could repeat its side effect`,
      );
    }
  }
  if (
    open("timeoutMs") && spec.timeoutMs !== undefined &&
    (typeof spec.timeoutMs !== "number" || !Number.isInteger(spec.timeoutMs) ||
      spec.timeoutMs < 1 ||
      spec.timeoutMs > MAX_TIMEOUT_MS)
  ) {
    refuse(
      "/timeoutMs",
      `Cannot use the timeout as it must be a whole number of ms from 1 to ${MAX_TIMEOUT_MS}: current value is ${
        showValue(spec.timeoutMs)
      }`,
    );
  }
  if (open("idempotencyKey") && spec.idempotencyKey !== undefined) {
    if (
      typeof spec.idempotencyKey !== "string" ||
      !KEY_PATH.test(spec.idempotencyKey)
    ) {
      refuse(
        "/idempotencyKey",
        `Cannot use the idempotency key as it must be a dotted path like "request.id": current value is ${
          showValue(spec.idempotencyKey)
        }`,
      );
    } else if (
      isRecord(spec.inputSchema) &&
      !keyPathExists(spec.inputSchema, spec.idempotencyKey)
    ) {
      refuse(
        "/idempotencyKey",
        `Cannot use the idempotency key as the input schema declares no property at that path: current value is ${
          showValue(spec.idempotencyKey)
        }`,
      );
    }
  }
  if (open("hints") && spec.hints !== undefined && !isRecord(spec.hints)) {
    refuse(
      "/hints",
      `Cannot use the hints as they must be an object: current value is ${showValue(spec.hints)}`,
    );
  }
  return problems;
}

/** The fields of a tool spec. */
const SPEC_FIELDS: readonly (keyof ToolSpec)[] = [
  "name",
  "version",
  "title",
  "description",
  "inputSchema",
  "outputSchema",
  "effects",
  "semantics",
  "timeoutMs",
  "idempotencyKey",
  "hints",
];

/**
 * A spec's fields that are set, each read once and the ones that hold data copied: its JSON fields (where they are
 * bounded JSON), its effects and its semantics. A field that cannot be read or copied is left out, with the problem
 * it is refused for. Nothing the caller holds is in it.
 */
function specFields(spec: ToolSpec): { fields: ToolSpec; unread: SpecProblem[] } {
  const fields: Record<string, unknown> = {};
  const unread: SpecProblem[] = [];
  for (const field of SPEC_FIELDS) {
    // A getter or a proxy may throw: the field is refused for it, as data that is not plain JSON is.
    try {
      const value: unknown = spec[field];
      if (value === undefined) continue;
      const read = readField(field, value);
      if (read.ok) fields[field] = read.value;
      else unread.push(read.problem);
    } catch (error) {
      unread.push({
        path: `/${field}`,
        message: `Cannot read the ${field} as reading it threw: ${messageOfThrown(error)}`,
      });
    }
  }
  return { fields: fields as unknown as ToolSpec, unread };
}

/** One field's value, copied where it holds data, or the problem that stops the copy. */
function readField(
  field: keyof ToolSpec,
  value: unknown,
): { ok: true; value: unknown } | { ok: false; problem: SpecProblem } {
  if (isJsonField(field)) {
    const copied = copyJsonValue(value, limitsOf(field));
    return copied.ok ? copied : { ok: false, problem: asSpecProblem(field, copied.problem) };
  }
  if (field === "effects" && Array.isArray(value)) {
    // Read by index up to a bound: a spread would run the array's own iterator, and a sparse array of millions
    // would be read slot by slot.
    const { length } = value;
    if (length > MAX_EFFECTS) {
      const message = `Cannot use the effects as they list more than ${MAX_EFFECTS}: current length is ${length}`;
      return { ok: false, problem: { path: "/effects", message } };
    }
    return { ok: true, value: Array.from({ length }, (_, i) => value[i]) };
  }
  if (field === "semantics" && isPlainRecord(value)) return { ok: true, value: { ...value } };
  return { ok: true, value };
}

/** A spec's fields, read as {@linkcode specFields} reads them; a spec that is no object is left for its check. */
function readSpec(spec: ToolSpec): { fields: ToolSpec; unread: SpecProblem[] } {
  try {
    if (isRecord(spec)) return specFields(spec);
  } catch (error) {
    // A revoked proxy throws as soon as it is asked whether it is an array: there are no fields to check.
    const message = `Cannot build a tool spec as reading it threw: ${messageOfThrown(error)}`;
    return { fields: {} as ToolSpec, unread: [{ path: "", message }] };
  }
  return { fields: spec, unread: [] };
}

/**
 * Checks a spec and fills in its defaults: version `1.0.0` and semantics
 * that follow the effects. The descriptor is a frozen deep copy, so the
 * caller's spec can change later without touching it.
 *
 * @param spec The spec as declared.
 * @returns The frozen descriptor.
 * @throws {InvalidSpecError} With every problem found, when any is.
 *
 * @example Defaults follow the effects
 * ```ts
 * import { describeTool } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * const descriptor = describeTool({
 *   name: "read_file",
 *   description: "Read a UTF-8 text file.",
 *   inputSchema: { type: "object", properties: { path: { type: "string" } } },
 *   effects: ["fs.read"],
 * });
 * assert.equal(descriptor.version, "1.0.0");
 * assert.equal(descriptor.semantics.retry, "automatic");
 * ```
 */
export function describeTool(spec: ToolSpec): ToolDescriptor {
  // Each field read once, and nothing but the spec's fields: what is checked is what is copied (a getter cannot show
  // the check one value and the copy another), and an unrelated property, such as a handler, is not the tool's.
  const { fields, unread } = readSpec(spec);
  const problems = unread.some((problem) => problem.path === "") ? unread : specProblems(fields, unread);
  if (problems.length > 0) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : "";
    const name = isRecord(fields) && typeof fields.name === "string" ? `"${fields.name}"` : "a tool";
    throw new InvalidSpecError(
      `Cannot define ${name}: ${problems[0].message}${more}`,
      { problems },
    );
  }
  // The fields are the descriptor's own already.
  return deepFreeze({
    ...fields,
    version: fields.version ?? "1.0.0",
    semantics: resolveSemantics(fields),
  });
}
