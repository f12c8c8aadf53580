// JSON equality for const, enum and uniqueItems: numbers by value (1 and
// 1.0 are one number in JS already), objects regardless of key order.

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether two JSON values are equal. Recursion is bounded by the shallower value's depth. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (!isObject(b) || Array.isArray(b)) return false;
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
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) text += (i === 0 ? "" : ",") + canonicalJson(value[i]);
    return `${text}]`;
  }
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    let text = "{";
    for (let i = 0; i < keys.length; i++) {
      text += `${i === 0 ? "" : ","}${JSON.stringify(keys[i])}:${canonicalJson(value[keys[i]])}`;
    }
    return `${text}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The depth of a JSON value, counting up to `max + 1` without recursion. */
export function jsonDepth(value: unknown, max: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > max) return deepest;
    for (const key in node) stack.push([(node as Record<string, unknown>)[key], depth + 1]);
  }
  return deepest;
}
