// Which keywords each draft defines, and which of them hold subschemas.
// A keyword outside these sets is an annotation and is ignored.

/** The drafts the validator compiles. */
export type Draft = "2020-12" | "7";

/**
 * Keywords that mean something but are not implemented, by draft: the
 * schema is routed to the fallback validator. `$vocabulary` only matters in
 * a meta-schema, which is what a schema using it is; 2019-09's recursive
 * references belong to a draft not compiled. Draft-07 has no dynamic
 * references: a draft-07 schema with `$dynamicRef` was written for another draft.
 */
export const UNSUPPORTED: Readonly<Record<Draft, ReadonlySet<string>>> = {
  "2020-12": new Set(["$recursiveRef", "$recursiveAnchor", "$vocabulary"]),
  "7": new Set(["$dynamicRef", "$recursiveRef", "$recursiveAnchor", "$vocabulary"]),
};

/** Keywords whose value is one subschema. */
export const SCHEMA_VALUED: Readonly<Record<Draft, readonly string[]>> = {
  "2020-12": [
    "additionalProperties",
    "unevaluatedProperties",
    "items",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "contentSchema",
  ],
  "7": ["additionalItems", "items", "contains", "additionalProperties", "propertyNames", "not", "if", "then", "else"],
};

/** Keywords whose value is an array of subschemas. */
export const SCHEMA_ARRAYS: Readonly<Record<Draft, readonly string[]>> = {
  "2020-12": ["prefixItems", "allOf", "anyOf", "oneOf"],
  "7": ["items", "allOf", "anyOf", "oneOf"],
};

/**
 * Keywords whose value maps names to subschemas. `definitions` is walked in
 * 2020-12 too, where it is common in schemas that never moved to `$defs`.
 * `dependencies` values may also be arrays of names, which are skipped.
 */
export const SCHEMA_MAPS: Readonly<Record<Draft, readonly string[]>> = {
  "2020-12": ["$defs", "definitions", "properties", "patternProperties", "dependentSchemas", "dependencies"],
  "7": ["definitions", "properties", "patternProperties", "dependencies"],
};
