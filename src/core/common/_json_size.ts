// Measuring encoded JSON without encoding it, and the lean pass that
// decides whether a value is plain bounded JSON. Shared by checkJsonValue
// and by the reading of a model's arguments.

// Printable ASCII other than `"` and `\`: encodes as itself, one byte a char.
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * Measures the encoded size of a JSON string literal and checks that it is
 * well-formed UTF-16 (no lone surrogates, which have no UTF-8 encoding).
 * Returns -1 for a lone surrogate.
 */
export function encodedStringBytes(text: string): number {
  // A regular expression scans a long string faster than a loop of charCodeAt.
  if (text.length > 32 && PLAIN_ASCII.test(text)) return text.length + 2;
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20) {
      bytes += code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 2 : 6;
    } else if (code === 0x22 || code === 0x5c) bytes += 2;
    else if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return -1;
      bytes += 4;
      i++;
    } else if (code >= 0xdc00 && code <= 0xdfff) return -1;
    else bytes += 3;
  }
  return bytes;
}

/** The length of a finite number's JSON text, without building it for common integers. */
export function numberBytes(value: number): number {
  if (Number.isInteger(value)) {
    const sign = value < 0 ? 1 : 0;
    const n = sign ? -value : value;
    if (n < 1e6) return sign + (n < 10 ? 1 : n < 100 ? 2 : n < 1e3 ? 3 : n < 1e4 ? 4 : n < 1e5 ? 5 : 6);
    if (n < 1e21) {
      let digits = 7;
      for (let limit = 1e7; n >= limit; limit *= 10) digits++;
      return sign + digits;
    }
  }
  return String(value).length;
}

// The most bytes one UTF-16 unit of a string encodes to (a control character: `\u0000`),
// and the longest JSON text of a finite number: 17 significant digits after
// five zeros, as in `-0.0000010398850652638962`.
const MAX_BYTES_PER_UNIT = 6;
const MAX_NUMBER_BYTES = 25;

/** A bound on a string's encoded size, or -1 for a lone surrogate. */
function stringBytesAtMost(text: string): number {
  return text.isWellFormed() ? text.length * MAX_BYTES_PER_UNIT + 2 : -1;
}

/** A bound on a finite number's encoded size: exact for integers, which are cheap to measure. */
function numberBytesAtMost(value: number): number {
  return Number.isInteger(value) ? numberBytes(value) : MAX_NUMBER_BYTES;
}

/**
 * How the lean pass counts strings and numbers: `exact`ly, or at their
 * largest (`bound`), which needs no scan of a string or formatting of a
 * number, so a value that passes so passes exactly.
 */
export type Measure = "exact" | "bound";

function stringBytes(text: string, measure: Measure): number {
  return measure === "exact" ? encodedStringBytes(text) : stringBytesAtMost(text);
}

/**
 * The verdict alone, in one lean pass: the bytes left of `budget` once the
 * value is encoded, or -1 when it is not plain bounded JSON. No path, no
 * message and no cycle check: a cycle runs into the depth bound.
 */
function remaining(value: unknown, depth: number, maxDepth: number, budget: number, measure: Measure): number {
  switch (typeof value) {
    case "string": {
      const bytes = stringBytes(value, measure);
      return bytes < 0 ? -1 : budget - bytes;
    }
    case "number":
      if (!Number.isFinite(value)) return -1;
      return budget - (measure === "exact" ? numberBytes(value) : numberBytesAtMost(value));
    case "boolean":
      return budget - (value ? 4 : 5);
    case "object": {
      if (value === null) return budget - 4;
      const inner = depth + 1;
      if (inner > maxDepth) return -1;
      if (Array.isArray(value)) {
        budget -= value.length === 0 ? 2 : value.length + 1;
        for (let i = 0; i < value.length && budget >= 0; i++) {
          budget = remaining(value[i], inner, maxDepth, budget, measure);
        }
        return budget;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null && Object.getPrototypeOf(proto) !== null) return -1;
      // for-in walks a plain object without building its list of keys. It also
      // sees enumerable keys a polluted Object.prototype adds: that can only
      // refuse more, and a refusal is checked again by the detailed walk.
      let count = 0;
      for (const key in value) {
        count++;
        const bytes = stringBytes(key, measure);
        if (bytes < 0) return -1;
        budget = remaining((value as Record<string, unknown>)[key], inner, maxDepth, budget - bytes - 1, measure);
        if (budget < 0) return -1;
      }
      return budget - (count === 0 ? 2 : count + 1);
    }
    default:
      return -1;
  }
}

/** How many items of an array a copy keeps: those up to its last that is not `undefined` (or a hole). */
export function keptLength(items: readonly unknown[]): number {
  let length = items.length;
  while (length > 0 && items[length - 1] === undefined) length--;
  return length;
}

/**
 * Whether a value is plain JSON within the limits, decided in one lean
 * pass. False means "not shown to pass", not a diagnosis: the caller walks
 * again to find what and where.
 *
 * @param value The value; a getter or proxy that throws makes this throw.
 * @param maxBytes The largest encoded size allowed, in UTF-8 bytes.
 * @param maxDepth The deepest nesting allowed.
 * @param measure How strings and numbers are counted.
 */
export function leanVerdict(value: unknown, maxBytes: number, maxDepth: number, measure: Measure): boolean {
  return remaining(value, 0, maxDepth, maxBytes, measure) >= 0;
}

/**
 * Whether a value holds at most `max` objects and arrays, counting until it
 * finds one more. Run only on a value the lean pass has shown bounded in
 * depth (a cycle would not end).
 *
 * @param value The value.
 * @param max The most objects and arrays allowed.
 */
export function containersAtMost(value: unknown, max: number): boolean {
  let count = 0;
  const holds = (node: unknown): boolean => {
    if (typeof node !== "object" || node === null) return true;
    if (++count > max) return false;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) if (!holds(node[i])) return false;
      return true;
    }
    for (const key in node) if (!holds((node as Record<string, unknown>)[key])) return false;
    return true;
  };
  return holds(value);
}

/**
 * Whether a value parsed from a JSON text that vouches for its size and its
 * strings is plain bounded JSON: only its depth and its numbers are left to
 * check (a JSON text may write a number too large for a double, which
 * parses to Infinity).
 *
 * @param value What `JSON.parse` returned.
 * @param maxDepth The deepest nesting allowed.
 */
export function parsedStructureHolds(value: unknown, maxDepth: number): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  return typeof value !== "object" || value === null || containerHolds(value, 0, maxDepth);
}

/** Whether an object or array at `depth` holds; its leaves are checked in the loop, not by a call each. */
function containerHolds(value: object, depth: number, maxDepth: number): boolean {
  if (depth >= maxDepth) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!itemHolds(value[i], depth, maxDepth)) return false;
    }
    return true;
  }
  for (const key in value) {
    if (!itemHolds((value as Record<string, unknown>)[key], depth, maxDepth)) return false;
  }
  return true;
}

function itemHolds(item: unknown, depth: number, maxDepth: number): boolean {
  if (typeof item === "object") return item === null || containerHolds(item, depth + 1, maxDepth);
  return typeof item !== "number" || Number.isFinite(item);
}

/** What {@linkcode leanCopy} returns when it cannot show a value passes. */
export const NOT_SHOWN: unique symbol = Symbol("not shown");

/**
 * Copies a value that is plain bounded JSON in one lean pass, reading each
 * property once, with sizes counted at their largest; `NOT_SHOWN` when that
 * pass cannot show it passes (too large by that count, not plain JSON, a
 * `__proto__` key), and the caller walks again in detail. Members whose
 * value is `undefined`, and `undefined` items at an array's end, are left
 * out, as the detailed walk leaves them out of its copy.
 *
 * @param value The value; a getter or proxy that throws makes this throw.
 * @param maxBytes The largest encoded size allowed, in UTF-8 bytes.
 * @param maxDepth The deepest nesting allowed.
 */
export function leanCopy(value: unknown, maxBytes: number, maxDepth: number): unknown {
  const budget = { left: maxBytes };
  return copyOf(value, 0, maxDepth, budget);
}

function copyOf(value: unknown, depth: number, maxDepth: number, budget: { left: number }): unknown {
  switch (typeof value) {
    case "string": {
      const bytes = stringBytesAtMost(value);
      if (bytes < 0) return NOT_SHOWN;
      budget.left -= bytes;
      return budget.left >= 0 ? value : NOT_SHOWN;
    }
    case "number":
      budget.left -= numberBytesAtMost(value);
      return Number.isFinite(value) && budget.left >= 0 ? value : NOT_SHOWN;
    case "boolean":
      budget.left -= 5;
      return budget.left >= 0 ? value : NOT_SHOWN;
    case "object": {
      if (value === null) {
        budget.left -= 4;
        return budget.left >= 0 ? value : NOT_SHOWN;
      }
      const inner = depth + 1;
      if (inner > maxDepth) return NOT_SHOWN;
      if (Array.isArray(value)) {
        budget.left -= value.length + 2;
        if (budget.left < 0) return NOT_SHOWN;
        const length = keptLength(value);
        const copy: unknown[] = new Array(length);
        for (let i = 0; i < length; i++) {
          const item = copyOf(value[i], inner, maxDepth, budget);
          if (item === NOT_SHOWN) return NOT_SHOWN;
          copy[i] = item;
        }
        return copy;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null && Object.getPrototypeOf(proto) !== null) return NOT_SHOWN;
      const keys = Object.keys(value);
      budget.left -= keys.length + 2;
      const copy: Record<string, unknown> = {};
      for (const key of keys) {
        // Assigning "__proto__" would set the copy's prototype: the detailed walk defines it as a key.
        if (key === "__proto__") return NOT_SHOWN;
        const member = (value as Record<string, unknown>)[key];
        if (member === undefined) continue;
        const keyBytes = stringBytesAtMost(key);
        if (keyBytes < 0) return NOT_SHOWN;
        budget.left -= keyBytes + 1;
        if (budget.left < 0) return NOT_SHOWN;
        const item = copyOf(member, inner, maxDepth, budget);
        if (item === NOT_SHOWN) return NOT_SHOWN;
        copy[key] = item;
      }
      return copy;
    }
    default:
      return NOT_SHOWN;
  }
}
