/**
 * Size and depth limits on every schema and value that crosses the tool
 * boundary, checked in one walk that stops at the first problem.
 *
 * @module
 */

import { toPointer } from "./_json_pointer.ts";

/** The bounds a schema or value must stay within. */
export interface JsonLimits {
  /** The largest encoded JSON size, in UTF-8 bytes. */
  readonly maxBytes: number;
  /** The deepest nesting of objects and arrays; a top-level object is depth 1. */
  readonly maxDepth: number;
}

/** The limits DESIGN.md sets: 256 KiB of encoded JSON and depth 32. */
export const DEFAULT_LIMITS: JsonLimits = Object.freeze({
  maxBytes: 256 * 1024,
  maxDepth: 32,
});

/** The reason a value was refused by {@linkcode checkJsonValue}. */
export interface LimitProblem {
  /** What was broken: size, depth, JSON-ness, or string encoding. */
  readonly keyword: "maxBytes" | "maxDepth" | "json" | "wellFormed";
  /** A JSON Pointer to the place the walk stopped at. */
  readonly path: string;
  /** A sentence saying what was found. */
  readonly message: string;
}

// Printable ASCII other than `"` and `\`: encodes as itself, one byte a char.
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * Measures the encoded size of a JSON string literal and checks that it is
 * well-formed UTF-16 (no lone surrogates, which have no UTF-8 encoding).
 * Returns -1 for a lone surrogate.
 */
function encodedStringBytes(text: string): number {
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
function numberBytes(value: number): number {
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

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "number") return String(value);
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return "a symbol";
  if (value === undefined) return "undefined";
  const name = Object.getPrototypeOf(value)?.constructor?.name;
  return name ? `a ${name}` : "an object";
}

class Walk {
  bytes = 0;
  problem: LimitProblem | undefined;
  readonly ancestors: object[] = [];
  // The path is kept as tokens and joined only on failure, so a passing walk
  // builds no strings.
  readonly tokens: string[] = [];
  constructor(readonly limits: JsonLimits) {}

  fail(keyword: LimitProblem["keyword"], message: string): false {
    this.problem = { path: toPointer(this.tokens), keyword, message };
    return false;
  }

  addBytes(count: number): boolean {
    this.bytes += count;
    if (this.bytes <= this.limits.maxBytes) return true;
    return this.fail(
      "maxBytes",
      `Cannot accept the value as it exceeds ${this.limits.maxBytes} bytes of encoded JSON: current size is over ${this.bytes} bytes`,
    );
  }

  string(text: string): boolean {
    const bytes = encodedStringBytes(text);
    if (bytes < 0) {
      return this.fail(
        "wellFormed",
        "Cannot accept the string as it holds a lone surrogate: it has no UTF-8 encoding",
      );
    }
    return this.addBytes(bytes);
  }

  value(value: unknown, depth: number): boolean {
    switch (typeof value) {
      case "string":
        return this.string(value);
      case "boolean":
        return this.addBytes(value ? 4 : 5);
      case "number":
        if (!Number.isFinite(value)) {
          return this.fail(
            "json",
            `Cannot accept the number as JSON has no ${value}: current value is ${value}`,
          );
        }
        return this.addBytes(numberBytes(value));
      case "object":
        if (value === null) return this.addBytes(4);
        return this.container(value, depth + 1);
      default:
        return this.fail(
          "json",
          `Cannot accept the value as JSON cannot carry it: current value is ${describe(value)}`,
        );
    }
  }

  container(value: object, depth: number): boolean {
    if (depth > this.limits.maxDepth) {
      return this.fail(
        "maxDepth",
        `Cannot accept the value as it nests deeper than ${this.limits.maxDepth} levels`,
      );
    }
    if (this.ancestors.includes(value)) {
      return this.fail(
        "json",
        "Cannot accept the value as it contains itself: JSON cannot carry a cycle",
      );
    }
    this.ancestors.push(value);
    const ok = Array.isArray(value) ? this.array(value, depth) : this.object(value, depth);
    this.ancestors.pop();
    return ok;
  }

  array(items: unknown[], depth: number): boolean {
    if (!this.addBytes(items.length === 0 ? 2 : items.length + 1)) return false;
    for (let i = 0; i < items.length; i++) {
      this.tokens.push(String(i));
      if (!this.value(items[i], depth)) return false;
      this.tokens.pop();
    }
    return true;
  }

  object(record: object, depth: number): boolean {
    // A plain object's prototype is some realm's Object.prototype (or null).
    const proto = Object.getPrototypeOf(record);
    if (proto !== null && Object.getPrototypeOf(proto) !== null) {
      return this.fail(
        "json",
        `Cannot accept the value as JSON carries only plain objects: current value is ${describe(record)}`,
      );
    }
    const keys = Object.keys(record);
    if (!this.addBytes(keys.length === 0 ? 2 : keys.length + 1)) return false;
    for (const key of keys) {
      this.tokens.push(key);
      // +1 for the colon after the key.
      if (!this.string(key) || !this.addBytes(1)) return false;
      if (!this.value((record as Record<string, unknown>)[key], depth)) {
        return false;
      }
      this.tokens.pop();
    }
    return true;
  }
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
 * The verdict alone, in one lean pass: the bytes left of `budget` once the
 * value is encoded, or -1 when it is not plain bounded JSON. No path, no
 * message and no cycle check: a cycle runs into the depth bound. On -1 the
 * detailed walk runs to say what and where. With `exact` false, strings and
 * numbers count at their largest possible size, which needs no scan of a
 * string or formatting of a number: a value that passes so passes exactly.
 */
function remaining(value: unknown, depth: number, maxDepth: number, budget: number, exact: boolean): number {
  switch (typeof value) {
    case "string": {
      const bytes = exact ? encodedStringBytes(value) : stringBytesAtMost(value);
      return bytes < 0 ? -1 : budget - bytes;
    }
    case "number":
      return Number.isFinite(value) ? budget - (exact ? numberBytes(value) : numberBytesAtMost(value)) : -1;
    case "boolean":
      return budget - (value ? 4 : 5);
    case "object": {
      if (value === null) return budget - 4;
      const inner = depth + 1;
      if (inner > maxDepth) return -1;
      if (Array.isArray(value)) {
        budget -= value.length === 0 ? 2 : value.length + 1;
        for (let i = 0; i < value.length && budget >= 0; i++) {
          budget = remaining(value[i], inner, maxDepth, budget, exact);
        }
        return budget;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null && Object.getPrototypeOf(proto) !== null) return -1;
      const keys = Object.keys(value);
      budget -= keys.length === 0 ? 2 : keys.length + 1;
      for (let i = 0; i < keys.length && budget >= 0; i++) {
        const key = keys[i];
        const bytes = exact ? encodedStringBytes(key) : stringBytesAtMost(key);
        if (bytes < 0) return -1;
        budget = remaining((value as Record<string, unknown>)[key], inner, maxDepth, budget - bytes - 1, exact);
      }
      return budget;
    }
    default:
      return -1;
  }
}

/**
 * Checks that a value is plain JSON data within the limits: finite numbers,
 * well-formed strings, plain objects and arrays, no cycle, at most
 * `maxDepth` levels deep and at most `maxBytes` once encoded. The walk
 * measures as it goes (no `JSON.stringify`) and stops at the first problem,
 * so a deep or huge value costs no more than the limit.
 *
 * @param value The value to check; it is not changed.
 * @param limits The bounds; {@linkcode DEFAULT_LIMITS} when absent.
 * @returns `undefined` when the value passes, else the first problem found
 * (a getter or proxy that throws while being read is a `json` problem).
 *
 * @example A cyclic object and a NaN are refused
 * ```ts
 * import { checkJsonValue } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * assert.equal(checkJsonValue({ path: "a.txt" }), undefined);
 * assert.equal(checkJsonValue({ n: NaN })?.keyword, "json");
 * const cyclic: Record<string, unknown> = {};
 * cyclic.self = cyclic;
 * assert.equal(checkJsonValue(cyclic)?.path, "/self");
 * ```
 */
export function checkJsonValue(
  value: unknown,
  limits: JsonLimits = DEFAULT_LIMITS,
): LimitProblem | undefined {
  try {
    // Most values are far below the byte bound: counting sizes at their
    // largest settles them without measuring a string or a number.
    if (remaining(value, 0, limits.maxDepth, limits.maxBytes, false) >= 0) return undefined;
    if (remaining(value, 0, limits.maxDepth, limits.maxBytes, true) >= 0) return undefined;
  } catch {
    // The detailed walk below reads the value again and reports the throw.
  }
  const walk = new Walk(limits);
  try {
    walk.value(value, 0);
  } catch (error) {
    // A getter or a proxy can throw while the value is read.
    const detail = error instanceof Error ? error.message : String(error);
    walk.fail("json", `Cannot read the value as reading it threw: ${detail}`);
  }
  return walk.problem;
}
