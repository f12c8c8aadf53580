// Shared by the provider projections: reading JSON Schema nodes, resolving
// local references, and walking a schema through one provider's keyword table.

import type { ProjectionWarning } from "./projection.ts";
import type { JsonSchema } from "../core/schema/schema.ts";
import { appendPointer, fragmentTokens } from "../core/common/_json_pointer.ts";
import { isRecord } from "../core/common/_is_record.ts";
import { setOwn } from "../core/common/_set_own.ts";

/** A JSON Schema object node, as the projections read it. */
export type SchemaNode = { readonly [keyword: string]: unknown };

/**
 * What a provider does with one keyword:
 * - `keep`: copied as it is (data: `enum`, `minimum`, `description`, ...);
 * - `schema`, `schemas`, `schema_map`: holds one schema, a list, or a map of
 *   them, each projected in turn;
 * - `special`: the provider's own code rewrites it;
 * - `{ drop }`: left out, with a warning giving the reason;
 * - `{ unsupported }`: the provider cannot express it faithfully.
 */
export type KeywordRule =
  | "keep"
  | "schema"
  | "schemas"
  | "schema_map"
  | "special"
  | { readonly drop: string }
  | { readonly unsupported: string };

/** One provider's rules: a table, and the rule for keywords it does not list. */
export interface KeywordTable {
  readonly rules: Readonly<Record<string, KeywordRule>>;
  readonly otherwise: KeywordRule;
}

/** The types a node declares: `type` as a list, empty when absent. */
export function typesOf(node: SchemaNode): string[] {
  if (typeof node.type === "string") return [node.type];
  return Array.isArray(node.type) ? node.type.filter((type) => typeof type === "string") : [];
}

/** Resolves `#` or `#/json/pointer` inside the root schema; anything else is `undefined`. */
export function resolveLocalRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  // Each token decoded on its own, as the validator resolves a reference; a malformed percent-encoding reaches nothing.
  const tokens = fragmentTokens(ref.slice(1));
  if (tokens === undefined) return undefined;
  let node: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(token)) node = node[Number(token)];
    else if (isRecord(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return isRecord(node) || typeof node === "boolean" ? node as JsonSchema : undefined;
}

/**
 * Refuses what is not a descriptor (or a spec) before a projection reads
 * it, so bad input is a clear TypeError rather than a failure deep inside.
 */
export function checkDescriptor(descriptor: unknown, provider: string): void {
  if (
    isRecord(descriptor) && typeof descriptor.name === "string" && typeof descriptor.description === "string" &&
    isRecord(descriptor.inputSchema) && Array.isArray(descriptor.effects)
  ) return;
  const shown = isRecord(descriptor)
    ? `an object with ${Object.keys(descriptor).slice(0, 8).join(", ") || "no keys"}`
    : String(descriptor);
  throw new TypeError(
    `Cannot project the tool for ${provider} as it needs a ToolDescriptor with a name, a description, an object input schema and effects: current value is ${shown}`,
  );
}

/** Whether a schema accepts `null`: `true`, `false`, or `undefined` when it cannot tell. */
export type NullAnswer = boolean | undefined;

// The answers that hold however a node is reached (none met a cycle), per frozen root: every descriptor's schema is
// frozen, so its projection and each restore of its calls read a node once. Another root is read afresh each time.
const settledAnswers = new WeakMap<object, WeakMap<object, NullAnswer>>();

// The conjunction of keywords' answers: one refusal refuses, one unknown leaves it unknown.
function all(answers: readonly NullAnswer[]): NullAnswer {
  return answers.includes(false) ? false : answers.includes(undefined) ? undefined : true;
}

// An answer two readings of a schema agree on, and otherwise none.
function agreed(a: NullAnswer, b: NullAnswer): NullAnswer {
  return a === b ? a : undefined;
}

/**
 * Reads whether schema nodes accept `null`, each node once: references
 * shared by many paths cost one reading, and a reference cycle (a schema
 * applying itself to the same value) cannot be told.
 */
class NullReading {
  readonly #root: JsonSchema;
  readonly #settled: WeakMap<object, NullAnswer>;
  // This reading's answers met through a cycle: they hold for it, not for a reading that starts elsewhere.
  readonly #cyclic = new WeakMap<object, NullAnswer>();
  readonly #open = new Set<object>();
  #metCycle = false;

  constructor(root: JsonSchema) {
    this.#root = root;
    const frozen = typeof root === "object" && Object.isFrozen(root);
    this.#settled = (frozen ? settledAnswers.get(root) : undefined) ?? new WeakMap();
    if (frozen) settledAnswers.set(root, this.#settled);
  }

  answer(schema: unknown): NullAnswer {
    if (typeof schema === "boolean") return schema;
    if (!isRecord(schema)) return undefined;
    if (this.#settled.has(schema)) return this.#settled.get(schema);
    if (this.#open.has(schema) || this.#cyclic.has(schema)) {
      // An answer met through a cycle holds only for this reading, and so does every answer built on it.
      this.#metCycle = true;
      return this.#cyclic.get(schema);
    }
    const outer = this.#metCycle;
    this.#metCycle = false;
    this.#open.add(schema);
    const answer = this.#read(schema);
    this.#open.delete(schema);
    (this.#metCycle ? this.#cyclic : this.#settled).set(schema, answer);
    this.#metCycle ||= outer;
    return answer;
  }

  #read(schema: SchemaNode): NullAnswer {
    const own = this.#own(schema);
    if (typeof schema.$ref !== "string") return own;
    const target = resolveLocalRef(this.#root, schema.$ref);
    const referenced = target === undefined ? undefined : this.answer(target);
    // Draft-07 ignores the keywords beside $ref, 2020-12 applies them: the answer must hold both ways.
    return agreed(referenced, all([referenced, own]));
  }

  // What the node's keywords other than $ref say.
  #own(schema: SchemaNode): NullAnswer {
    // Any of these refuses null whatever the rest says.
    if (schema.type !== undefined && !typesOf(schema).includes("null")) return false;
    if ("const" in schema && schema.const !== null) return false;
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
    if (schema.$dynamicRef !== undefined || schema.$recursiveRef !== undefined) return undefined;
    const answers: NullAnswer[] = [];
    const anyOf = this.#branches(schema.anyOf);
    if (anyOf) answers.push(anyOf.includes(true) ? true : anyOf.includes(undefined) ? undefined : false);
    const oneOf = this.#branches(schema.oneOf);
    if (oneOf) {
      const accepting = oneOf.filter((answer) => answer === true).length;
      answers.push(accepting > 1 ? false : oneOf.includes(undefined) ? undefined : accepting === 1);
    }
    const allOf = this.#branches(schema.allOf);
    if (allOf) answers.push(all(allOf));
    if (schema.not !== undefined) {
      const not = this.answer(schema.not);
      answers.push(not === undefined ? undefined : !not);
    }
    if (schema.if !== undefined) {
      const then = schema.then === undefined ? true : this.answer(schema.then);
      const otherwise = schema.else === undefined ? true : this.answer(schema.else);
      const condition = this.answer(schema.if);
      // Draft-06 and earlier ignore the conditionals: the answer must hold both ways.
      answers.push(agreed(true, condition === undefined ? agreed(then, otherwise) : condition ? then : otherwise));
    }
    return all(answers);
  }

  #branches(list: unknown): NullAnswer[] | undefined {
    return Array.isArray(list) ? list.map((branch) => this.answer(branch)) : undefined;
  }
}

/**
 * Tells whether a schema accepts `null` (following local references):
 * `true` or `false` when that is certain, `undefined` when it cannot tell
 * (a reference that does not resolve or loops, `$dynamicRef`, or keywords
 * the drafts read differently and that decide it).
 */
export function acceptsNull(schema: unknown, root: JsonSchema): NullAnswer {
  return new NullReading(root).answer(schema);
}

/**
 * Tells whether OpenAI strict mode turns this property of an object node
 * from optional into required-and-nullable: it is optional and certainly
 * refuses `null`. One whose answer cannot be told is left as it is. The
 * projection and the dispatcher's restore both decide with this one rule,
 * so they cannot disagree.
 */
export function madeNullable(node: SchemaNode, key: string, root: JsonSchema): boolean {
  const properties = isRecord(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required) ? node.required : [];
  return Object.hasOwn(properties, key) && !required.includes(key) && acceptsNull(properties[key], root) === false;
}

/** Collects warnings and problems as a projection walks a schema. */
export class Findings {
  readonly warnings: ProjectionWarning[] = [];
  readonly problems: ProjectionWarning[] = [];

  warn(path: string, keyword: string, message: string): void {
    this.warnings.push({ path, keyword, message });
  }

  refuse(path: string, keyword: string, message: string): void {
    this.problems.push({ path, keyword, message });
  }
}

/**
 * Projects the keywords of one node through a provider's table. Schema
 * valued keywords are handed to `project` with their path; `special`
 * keywords are left for the caller; drops and refusals are recorded.
 */
export function projectKeywords(
  node: SchemaNode,
  path: string,
  table: KeywordTable,
  findings: Findings,
  project: (child: unknown, path: string) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(node)) {
    const rule = table.rules[keyword] ?? table.otherwise;
    const at = appendPointer(path, keyword);
    if (rule === "keep") {
      setOwn(out, keyword, structuredClone(value));
    } else if (rule === "schema") {
      setOwn(out, keyword, project(value, at));
    } else if (rule === "schemas") {
      setOwn(
        out,
        keyword,
        Array.isArray(value)
          ? value.map((child, i) => project(child, appendPointer(at, String(i))))
          : project(value, at),
      );
    } else if (rule === "schema_map") {
      setOwn(
        out,
        keyword,
        isRecord(value)
          ? Object.fromEntries(
            Object.entries(value).map(([key, child]) => [key, project(child, appendPointer(at, key))]),
          )
          : structuredClone(value),
      );
    } else if (rule === "special") {
      continue;
    } else if ("drop" in rule) {
      findings.warn(at, keyword, `Dropped "${keyword}": ${rule.drop}`);
    } else {
      findings.refuse(at, keyword, `Cannot express "${keyword}": ${rule.unsupported}`);
    }
  }
  return out;
}
