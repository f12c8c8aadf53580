/**
 * Size and depth limits on every schema and value that crosses the tool
 * boundary, checked in one walk that stops at the first problem.
 *
 * @module
 */

import { toPointer } from "./_json_pointer.ts";
import { encodedStringBytes, leanVerdict, numberBytes } from "./_json_size.ts";
import { messageOfThrown } from "./_describe_thrown.ts";

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
 * import { checkJsonValue } from "@salvor/tools/dyn";
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
    const { maxBytes, maxDepth } = limits;
    if (leanVerdict(value, maxBytes, maxDepth, "bound") || leanVerdict(value, maxBytes, maxDepth, "exact")) {
      return undefined;
    }
  } catch {
    // The detailed walk below reads the value again and reports the throw.
  }
  const walk = new Walk(limits);
  try {
    walk.value(value, 0);
  } catch (error) {
    // A getter or a proxy can throw while the value is read.
    const detail = messageOfThrown(error);
    walk.fail("json", `Cannot read the value as reading it threw: ${detail}`);
  }
  return walk.problem;
}
