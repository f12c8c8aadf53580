// One closure for the common leaf schemas (a type with its bounds), so that
// checking a string or a number costs one call instead of one per keyword.

import type { Check } from "./_node.ts";
import { codePoints } from "./_parts.ts";

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
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
]);

/**
 * The fused check of a leaf schema, or `undefined` when it is not one: a
 * single `type` with only its own bounds. Call it after the schema's parts
 * compiled, so the keyword values are known to be well formed.
 */
export function leafCheck(schema: Record<string, unknown>, formatIsInert: boolean): Check | undefined {
  for (const keyword in schema) {
    if (!CHECKED.has(keyword) && !INERT.has(keyword) && !(keyword === "format" && formatIsInert)) return undefined;
  }
  const bound = (keyword: string, fallback: number) => (schema[keyword] ?? fallback) as number;
  switch (schema.type) {
    case "string": {
      const min = bound("minLength", 0);
      const max = bound("maxLength", Infinity);
      // Code points are between half the UTF-16 length and all of it.
      const fastMin = min <= 1 ? min : min * 2;
      if (min === 0 && max === Infinity) return (value) => typeof value === "string";
      return (value) => {
        if (typeof value !== "string") return false;
        const length = value.length;
        if (length >= fastMin && length <= max) return true;
        if (length < min) return false;
        const points = codePoints(value);
        return points >= min && points <= max;
      };
    }
    case "integer":
    case "number": {
      const min = bound("minimum", -Infinity);
      const max = bound("maximum", Infinity);
      const above = bound("exclusiveMinimum", -Infinity);
      const below = bound("exclusiveMaximum", Infinity);
      if (schema.type === "integer") {
        return (value) =>
          Number.isInteger(value) && (value as number) >= min && (value as number) <= max &&
          (value as number) > above && (value as number) < below;
      }
      return (value) => typeof value === "number" && value >= min && value <= max && value > above && value < below;
    }
    // Lengths and bounds apply to neither.
    case "boolean":
      return (value) => typeof value === "boolean";
    case "null":
      return (value) => value === null;
    default:
      return undefined;
  }
}
