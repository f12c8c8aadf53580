// Walks the subschemas of a JSON Schema document keyword by keyword, so that
// a check reading keywords ($ref, pattern, format) never mistakes data
// (const, enum, default, a property's name) for a schema.

import { appendPointer, fragmentTokens, toPointer } from "../common/_json_pointer.ts";
import { isRecord } from "../common/_is_record.ts";

// Keywords whose value is a schema, an array of schemas, or a map of schemas,
// in any draft the core reads. Everything else is data and not walked.
const SCHEMA_VALUED = new Set([
  "additionalItems",
  "unevaluatedItems",
  "items",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "contentSchema",
]);
const SCHEMA_ARRAYS = new Set(["prefixItems", "items", "allOf", "anyOf", "oneOf"]);
const SCHEMA_MAPS = new Set([
  "$defs",
  "definitions",
  "properties",
  "patternProperties",
  "dependentSchemas",
  "dependencies",
]);

/**
 * Visits every object subschema of `schema`, parents first. `visit` gets the
 * subschema, its JSON Pointer and what its parent's visit returned, and
 * returns what its own subschemas get (a base URI, say).
 */
export function walkSubschemas<C>(
  schema: unknown,
  context: C,
  visit: (node: Record<string, unknown>, path: string, context: C) => C,
  path = "",
): void {
  if (!isRecord(schema)) return;
  const inner = visit(schema, path, context);
  for (const [keyword, value] of Object.entries(schema)) {
    const at = appendPointer(path, keyword);
    // A boolean schema has nothing to visit: no path is written for it.
    if (SCHEMA_ARRAYS.has(keyword) && Array.isArray(value)) {
      value.forEach((item, i) => isRecord(item) && walkSubschemas(item, inner, visit, appendPointer(at, String(i))));
    } else if (SCHEMA_MAPS.has(keyword) && typeof value === "object" && value !== null) {
      for (const [name, item] of Object.entries(value)) {
        if (isRecord(item)) walkSubschemas(item, inner, visit, appendPointer(at, name));
      }
    } else if (SCHEMA_VALUED.has(keyword)) {
      walkSubschemas(value, inner, visit, at);
    }
  }
}

/**
 * Visits every object schema of `document` once: its subschemas, as
 * {@linkcode walkSubschemas} finds them, and what a `$ref` of the form
 * `#/...` points at, which a validator reads as a schema even in a member
 * that is no keyword, where the walk does not go.
 */
export function walkReachable(document: unknown, visit: (node: Record<string, unknown>, path: string) => void): void {
  const visited = new Set<object>();
  const targets: string[] = [];
  const once = (node: Record<string, unknown>, path: string) => {
    if (visited.has(node)) return;
    visited.add(node);
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/")) targets.push(node.$ref);
    visit(node, path);
  };
  walkSubschemas(document, undefined, once);
  for (let i = 0; i < targets.length; i++) {
    const target = atFragment(document, targets[i]);
    if (target !== undefined) walkSubschemas(target.node, undefined, once, target.path);
  }
}

/** The object a `#/...` fragment points at in `document`, with its JSON Pointer; `undefined` for any other. */
function atFragment(document: unknown, fragment: string): { node: Record<string, unknown>; path: string } | undefined {
  // Each token decoded on its own, as a reference resolves it: `%2F` in one is a slash in a key, not a step.
  const tokens = fragmentTokens(fragment.slice(1));
  if (tokens === undefined) return undefined;
  let node = document;
  for (const token of tokens) {
    if (typeof node !== "object" || node === null) return undefined;
    node = Object.hasOwn(node, token) ? (node as Record<string, unknown>)[token] : undefined;
  }
  return isRecord(node) ? { node, path: toPointer(tokens) } : undefined;
}
