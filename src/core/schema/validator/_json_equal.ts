// JSON equality for const, enum and uniqueItems: numbers by value (1 and
// 1.0 are one number in JS already), objects regardless of key order.

import { isRecord } from "../../common/_is_record.ts";

/** Whether two JSON values are equal. Recursion is bounded by the shallower value's depth. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (!isRecord(b)) return false;
  const record = a as Record<string, unknown>;
  let count = 0;
  for (const key in record) {
    if (!Object.hasOwn(b, key) || !jsonEqual(record[key], b[key])) return false;
    count++;
  }
  for (const _ in b) count--;
  return count === 0;
}

/**
 * A string equal for equal JSON composites and different otherwise: keys
 * sorted, numbers as JSON writes them. Used to find repeats in linear time.
 */
export function canonicalJson(value: unknown): string {
  return canonicalJsonWithin(value, Infinity)!;
}

/**
 * As {@linkcode canonicalJson}, or `undefined` once the encoding would be
 * longer than `max` characters: no longer than that is read or built.
 */
export function canonicalJsonWithin(value: unknown, max: number): string | undefined {
  const budget = { left: max };
  return encode(value, budget);
}

function encode(value: unknown, budget: { left: number }): string | undefined {
  let text: string;
  if (Array.isArray(value)) {
    text = "[";
    for (let i = 0; i < value.length; i++) {
      const item = encode(value[i], budget);
      if (item === undefined) return undefined;
      text += (i === 0 ? "" : ",") + item;
    }
    text += "]";
    budget.left -= value.length + 1;
  } else if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    text = "{";
    for (let i = 0; i < keys.length; i++) {
      const key = encode(keys[i], budget);
      const item = key === undefined ? undefined : encode(value[keys[i]], budget);
      if (item === undefined) return undefined;
      text += `${i === 0 ? "" : ","}${key}:${item}`;
    }
    text += "}";
    budget.left -= keys.length * 2 + 1;
  } else {
    // A string's encoding is at least two longer than the string: a long one is not encoded at all.
    if (typeof value === "string" && value.length + 2 > budget.left) return undefined;
    text = JSON.stringify(value) ?? "null";
    budget.left -= text.length;
  }
  return budget.left < 0 ? undefined : text;
}

/**
 * The depth of a JSON value, read no deeper than `max + 1` levels: past `max` it returns `max + 1`. It recurses,
 * at most `max + 1` calls deep, with no allocation for a value of scalars.
 */
export function jsonDepth(value: unknown, max: number): number {
  if (typeof value !== "object" || value === null) return 0;
  if (max < 1) return 1;
  let deepest = 0;
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    if (typeof item !== "object" || item === null) continue;
    deepest = Math.max(deepest, jsonDepth(item, max - 1));
    if (deepest >= max) break;
  }
  return deepest + 1;
}
