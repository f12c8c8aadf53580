// Leaf schemas (a type with its bounds, a string's with its pattern, or an
// enum of scalars) as data: a parent checks its leaf children through one
// shared function, which the engine can inline, instead of one closure call
// per child.

import { codePoints } from "./_code_points.ts";
import type { Runtime } from "./_runtime.ts";
import type { CompiledPattern } from "./patterns.ts";

// Keywords a leaf may hold besides its checks: they never affect the verdict.
const INERT = new Set([
  "$comment",
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "contentMediaType",
  "contentEncoding",
]);
const CHECKED = new Set([
  "type",
  "enum",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "pattern",
]);

const STRING = 1;
const INTEGER = 2;
const NUMBER = 3;
const BOOLEAN = 4;
const NULL = 5;
const ENUM = 6;

/** A leaf schema as data; every leaf has every field, so all share one shape. */
export interface Leaf {
  readonly kind: number;
  /** Lengths for strings, inclusive bounds for numbers. */
  readonly min: number;
  readonly max: number;
  /** A UTF-16 length from here up to `max` needs no code point count. */
  readonly fastMin: number;
  /** Exclusive bounds for numbers. */
  readonly above: number;
  readonly below: number;
  readonly values: ReadonlySet<unknown> | undefined;
  /** The compiled `pattern` a string must match. */
  readonly pattern: CompiledPattern | undefined;
  /** The validation a code point count is charged to. */
  readonly runtime: Runtime;
}

/** Whether a value satisfies a leaf. */
export function matchesLeaf(leaf: Leaf, value: unknown): boolean {
  switch (leaf.kind) {
    case STRING: {
      if (typeof value !== "string") return false;
      const length = value.length;
      if (length < leaf.fastMin || length > leaf.max) {
        if (length < leaf.min) return false;
        const points = codePoints(value, leaf.runtime);
        if (points < leaf.min || points > leaf.max) return false;
      }
      return leaf.pattern === undefined || leaf.pattern.test(value);
    }
    case INTEGER:
      return Number.isInteger(value) && (value as number) >= leaf.min && (value as number) <= leaf.max &&
        (value as number) > leaf.above && (value as number) < leaf.below;
    case NUMBER:
      return typeof value === "number" && value >= leaf.min && value <= leaf.max && value > leaf.above &&
        value < leaf.below;
    case BOOLEAN:
      return typeof value === "boolean";
    case NULL:
      return value === null;
    default:
      return leaf.values!.has(value);
  }
}

/**
 * Reads a leaf schema, or returns `undefined` when it is not one: a single
 * `type` with only its own bounds (and pattern), or an enum of scalars
 * alone. Call it after the schema's parts compiled, so its keyword values
 * are well formed, with the `pattern` they compiled.
 */
export function readLeaf(
  schema: Record<string, unknown>,
  formatIsInert: boolean,
  pattern: CompiledPattern | undefined,
  runtime: Runtime,
): Leaf | undefined {
  for (const keyword in schema) {
    if (!CHECKED.has(keyword) && !INERT.has(keyword) && !(keyword === "format" && formatIsInert)) return undefined;
  }
  const bound = (keyword: string, fallback: number) => (schema[keyword] ?? fallback) as number;
  // A pattern is tested on strings only: a leaf of any other type ignores it, as the keyword does.
  const leaf = (kind: number, min: number, max: number, fastMin: number, values?: ReadonlySet<unknown>): Leaf => ({
    kind,
    min,
    max,
    fastMin,
    above: bound("exclusiveMinimum", -Infinity),
    below: bound("exclusiveMaximum", Infinity),
    values,
    pattern: kind === STRING ? pattern : undefined,
    runtime,
  });
  if ("enum" in schema) {
    const list = schema.enum as unknown[];
    const alone = Object.keys(schema).every((keyword) => !CHECKED.has(keyword) || keyword === "enum");
    if (!alone || list.some((item) => typeof item === "object" && item !== null)) return undefined;
    return leaf(ENUM, 0, 0, 0, new Set(list));
  }
  switch (schema.type) {
    case "string": {
      const min = bound("minLength", 0);
      // Code points are between half the UTF-16 length and all of it.
      return leaf(STRING, min, bound("maxLength", Infinity), min <= 1 ? min : min * 2);
    }
    case "integer":
      return leaf(INTEGER, bound("minimum", -Infinity), bound("maximum", Infinity), 0);
    case "number":
      return leaf(NUMBER, bound("minimum", -Infinity), bound("maximum", Infinity), 0);
    // Lengths and bounds apply to neither.
    case "boolean":
      return leaf(BOOLEAN, 0, 0, 0);
    case "null":
      return leaf(NULL, 0, 0, 0);
    default:
      return undefined;
  }
}

/** The check of a leaf on its own (a `Check` that ignores annotations). */
export function leafCheck(leaf: Leaf): (value: unknown) => boolean {
  return (value) => matchesLeaf(leaf, value);
}
