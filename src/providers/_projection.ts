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

/** Tells whether a schema certainly accepts `null` (following local references). */
export function acceptsNull(schema: unknown, root: JsonSchema, seen: ReadonlySet<string> = new Set()): boolean {
  if (schema === true) return true;
  if (!isRecord(schema)) return false;
  if (typeof schema.$ref === "string") {
    if (seen.has(schema.$ref)) return false;
    const target = resolveLocalRef(root, schema.$ref);
    return acceptsNull(target, root, new Set([...seen, schema.$ref]));
  }
  if (schema.type !== undefined && !typesOf(schema).includes("null")) return false;
  if ("const" in schema && schema.const !== null) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  for (const keyword of ["anyOf", "oneOf"]) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && !branches.some((branch) => acceptsNull(branch, root, seen))) return false;
  }
  if (Array.isArray(schema.allOf) && !schema.allOf.every((branch) => acceptsNull(branch, root, seen))) return false;
  return schema.not === undefined && schema.if === undefined;
}

/**
 * Tells whether OpenAI strict mode turns this property of an object node
 * from optional into required-and-nullable: it is optional and does not
 * already accept `null`. The projection and the dispatcher's restore both
 * decide with this one rule, so they cannot disagree.
 */
export function madeNullable(node: SchemaNode, key: string, root: JsonSchema): boolean {
  const properties = isRecord(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required) ? node.required : [];
  return Object.hasOwn(properties, key) && !required.includes(key) && !acceptsNull(properties[key], root);
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
