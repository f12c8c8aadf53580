/**
 * Size and depth limits on every schema and value that crosses the tool
 * boundary, checked in one walk that stops at the first problem.
 *
 * @module
 */

import { toPointer } from "./_json_pointer.ts";
import { containersAtMost, encodedStringBytes, leanCopy, leanVerdict, NOT_SHOWN, numberBytes } from "./_json_size.ts";
import { messageOfThrown } from "./_describe_thrown.ts";

/** The bounds a schema or value must stay within. */
export interface JsonLimits {
  /** The largest encoded JSON size, in UTF-8 bytes. */
  readonly maxBytes: number;
  /** The deepest nesting of objects and arrays; a top-level object is depth 1. */
  readonly maxDepth: number;
  /**
   * The most objects and arrays, counted together; unbounded when absent.
   * Bytes alone do not bound the work a value costs: 256 KiB hold 85,000
   * empty arrays.
   */
  readonly maxContainers?: number;
}

/** The limits DESIGN.md sets: 256 KiB of encoded JSON and depth 32. */
export const DEFAULT_LIMITS: JsonLimits = Object.freeze({
  maxBytes: 256 * 1024,
  maxDepth: 32,
});

/**
 * The limits on a tool's schemas: {@linkcode DEFAULT_LIMITS} and at most
 * 5,000 objects and arrays. A schema is copied, frozen and walked several
 * times in one stretch when its tool is defined, so its object count, not
 * its size in bytes, is what bounds that stretch.
 */
export const SCHEMA_LIMITS: JsonLimits = Object.freeze({
  ...DEFAULT_LIMITS,
  maxContainers: 5_000,
});

/** The reason a value was refused by {@linkcode checkJsonValue}. */
export interface LimitProblem {
  /** What was broken: size, depth, the count of objects and arrays, JSON-ness, or string encoding. */
  readonly keyword: "maxBytes" | "maxDepth" | "maxContainers" | "json" | "wellFormed";
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

/** What a walk step returns when the value broke a limit; the walk's `problem` says how. */
const FAILED: unique symbol = Symbol("failed");

/**
 * The detailed walk: it measures as it goes, stops at the first problem,
 * and builds a copy of what it read, reading each property exactly once, so
 * that a getter cannot show the check one value and the copy another.
 */
class Walk {
  bytes = 0;
  containers = 0;
  problem: LimitProblem | undefined;
  readonly ancestors: object[] = [];
  // The path is kept as tokens and joined only on failure, so a passing walk
  // builds no strings.
  readonly tokens: (string | number)[] = [];
  /**
   * @param limits The bounds.
   * @param leaveOut Whether members whose value is `undefined`, and the `undefined` items at an array's end, are left
   *   out of the copy (as JSON.stringify leaves such members out) rather than refused.
   */
  constructor(readonly limits: JsonLimits, readonly leaveOut: boolean) {}

  fail(keyword: LimitProblem["keyword"], message: string): typeof FAILED {
    this.problem = { path: toPointer(this.tokens), keyword, message };
    return FAILED;
  }

  addBytes(count: number): boolean {
    this.bytes += count;
    if (this.bytes <= this.limits.maxBytes) return true;
    this.fail(
      "maxBytes",
      `Cannot accept the value as it exceeds ${this.limits.maxBytes} bytes of encoded JSON: current size is over ${this.bytes} bytes`,
    );
    return false;
  }

  string(text: string): boolean {
    const bytes = encodedStringBytes(text);
    if (bytes < 0) {
      this.fail(
        "wellFormed",
        "Cannot accept the string as it holds a lone surrogate: it has no UTF-8 encoding",
      );
      return false;
    }
    return this.addBytes(bytes);
  }

  value(value: unknown, depth: number): unknown {
    switch (typeof value) {
      case "string":
        return this.string(value) ? value : FAILED;
      case "boolean":
        return this.addBytes(value ? 4 : 5) ? value : FAILED;
      case "number":
        if (!Number.isFinite(value)) {
          return this.fail(
            "json",
            `Cannot accept the number as JSON has no ${value}: current value is ${value}`,
          );
        }
        return this.addBytes(numberBytes(value)) ? value : FAILED;
      case "object":
        if (value === null) return this.addBytes(4) ? value : FAILED;
        return this.container(value, depth + 1);
      default:
        return this.fail(
          "json",
          `Cannot accept the value as JSON cannot carry it: current value is ${describe(value)}`,
        );
    }
  }

  container(value: object, depth: number): unknown {
    if (depth > this.limits.maxDepth) {
      return this.fail(
        "maxDepth",
        `Cannot accept the value as it nests deeper than ${this.limits.maxDepth} levels`,
      );
    }
    const { maxContainers } = this.limits;
    if (maxContainers !== undefined && ++this.containers > maxContainers) {
      return this.fail(
        "maxContainers",
        `Cannot accept the value as it holds more than ${maxContainers} objects and arrays`,
      );
    }
    if (this.ancestors.includes(value)) {
      return this.fail(
        "json",
        "Cannot accept the value as it contains itself: JSON cannot carry a cycle",
      );
    }
    this.ancestors.push(value);
    const copy = Array.isArray(value) ? this.array(value, depth) : this.object(value, depth);
    this.ancestors.pop();
    return copy;
  }

  array(items: unknown[], depth: number): unknown {
    const length = items.length;
    // Every item is charged before any is read, one left off too, so that a long sparse array fails at once.
    if (!this.addBytes(delimiterBytes(length))) return FAILED;
    const copy: unknown[] = [];
    // The first of the undefined items read last, left off unless an item follows them.
    let leftOff = -1;
    for (let i = 0; i < length; i++) {
      this.tokens.push(i);
      const source = items[i];
      if (source === undefined && this.leaveOut) {
        if (leftOff < 0) leftOff = i;
        this.tokens.pop();
        continue;
      }
      if (leftOff >= 0) {
        this.tokens[this.tokens.length - 1] = leftOff;
        return this.value(undefined, depth);
      }
      const item = this.value(source, depth);
      if (item === FAILED) return FAILED;
      copy.push(item);
      this.tokens.pop();
    }
    this.bytes -= delimiterBytes(length) - delimiterBytes(copy.length);
    return copy;
  }

  object(record: object, depth: number): unknown {
    // A plain object's prototype is some realm's Object.prototype (or null).
    const proto = Object.getPrototypeOf(record);
    if (proto !== null && Object.getPrototypeOf(proto) !== null) {
      return this.fail(
        "json",
        `Cannot accept the value as JSON carries only plain objects: current value is ${describe(record)}`,
      );
    }
    const keys = Object.keys(record);
    if (!this.addBytes(2)) return FAILED;
    const entries: [string, unknown][] = [];
    for (const key of keys) {
      this.tokens.push(key);
      const member = (record as Record<string, unknown>)[key];
      if (member === undefined && this.leaveOut) {
        this.tokens.pop();
        continue;
      }
      // The colon after the key, and the comma before it but for the first.
      if (!this.string(key) || !this.addBytes(entries.length === 0 ? 1 : 2)) return FAILED;
      const item = this.value(member, depth);
      if (item === FAILED) return FAILED;
      entries.push([key, item]);
      this.tokens.pop();
    }
    // fromEntries defines own properties: a "__proto__" key stays a key, as JSON.parse makes it.
    return Object.fromEntries(entries);
  }
}

/** The bytes the brackets or braces and commas of an array or object of `count` items take. */
function delimiterBytes(count: number): number {
  return count === 0 ? 2 : count + 1;
}

/** Runs the detailed walk; a getter or proxy that throws while read is a `json` problem. */
function walk(
  value: unknown,
  limits: JsonLimits,
  leaveOut = false,
): { readonly copy: unknown; readonly problem?: LimitProblem } {
  const walk = new Walk(limits, leaveOut);
  let copy: unknown = FAILED;
  try {
    copy = walk.value(value, 0);
  } catch (error) {
    walk.fail("json", `Cannot read the value as reading it threw: ${messageOfThrown(error)}`);
  }
  return walk.problem ? { copy, problem: walk.problem } : { copy };
}

/**
 * Copies a value that must be plain JSON within the limits, reading each
 * property exactly once, or says why it is not. The copy is what the checks
 * saw: a getter that answers differently each time, or a holder that
 * changes the value afterwards, cannot change it. The copy is the JSON the
 * value stands for: a member whose value is `undefined` is left out, as
 * `JSON.stringify` leaves it out (a typed optional field set to
 * `undefined`), and so are `undefined` items at an array's end (a tuple's
 * optional items); one before an item that is not is refused, as JSON has
 * no place for it. {@linkcode checkJsonValue} refuses them all.
 *
 * @param value The value to copy; it is not changed.
 * @param limits The bounds; {@linkcode DEFAULT_LIMITS} when absent.
 * @returns The copy, or the first problem found.
 *
 * @example A getter is read once
 * ```ts
 * import { copyJsonValue } from "./limits.ts";
 * import assert from "node:assert/strict";
 *
 * let reads = 0;
 * const copied = copyJsonValue({ get n() { return ++reads; } });
 * assert.deepEqual(copied, { ok: true, value: { n: 1 } });
 * assert.equal(copyJsonValue({ n: NaN }).ok, false);
 * ```
 *
 * @example What is undefined is left out
 * ```ts
 * import { copyJsonValue } from "./limits.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(copyJsonValue({ a: 1, note: undefined, pair: ["x", undefined] }), {
 *   ok: true,
 *   value: { a: 1, pair: ["x"] },
 * });
 * assert.equal(copyJsonValue({ pair: [undefined, "x"] }).ok, false);
 * ```
 */
export function copyJsonValue(
  value: unknown,
  limits: JsonLimits = DEFAULT_LIMITS,
): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: LimitProblem } {
  try {
    // Most values are far below the bounds: one lean pass copies them, and the copy's objects are counted.
    const { maxBytes, maxDepth, maxContainers } = limits;
    const lean = leanCopy(value, maxBytes, maxDepth);
    if (lean !== NOT_SHOWN && (maxContainers === undefined || containersAtMost(lean, maxContainers))) {
      return { ok: true, value: lean };
    }
  } catch {
    // The detailed walk reads the value again and reports the throw.
  }
  // Whatever it finds is what counts: its copy is what it checked.
  const { copy, problem } = walk(value, limits, true);
  return problem ? { ok: false, problem } : { ok: true, value: copy };
}

/**
 * Checks that a value is plain JSON data within the limits: finite numbers,
 * well-formed strings, plain objects and arrays, no cycle, at most
 * `maxDepth` levels deep, at most `maxBytes` once encoded and, when the
 * limits say, at most `maxContainers` objects and arrays. The walk
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
    const { maxBytes, maxDepth, maxContainers } = limits;
    if (
      (leanVerdict(value, maxBytes, maxDepth, "bound") || leanVerdict(value, maxBytes, maxDepth, "exact")) &&
      (maxContainers === undefined || containersAtMost(value, maxContainers))
    ) {
      return undefined;
    }
  } catch {
    // The detailed walk below reads the value again and reports the throw.
  }
  return walk(value, limits).problem;
}
