// The one text a sealed record's MAC covers. Two records that mean the same
// JSON encode to the same text whatever the order of their keys, and two
// that mean different JSON never do, so a MAC cannot be moved from one to
// the other. It reads each property once, so a getter cannot show the
// encoder one value and the caller another, and it refuses what would not
// survive storage as JSON, rather than sealing a value that reads back changed.

import { toPointer } from "../common/_json_pointer.ts";

/** The encoder's bounds: how deep a value may nest and how long its text may grow. */
export interface CanonicalLimits {
  /** The deepest nesting of arrays and objects; the top-level value is depth 1. */
  readonly maxDepth: number;
  /** The longest text, in UTF-16 code units. */
  readonly maxChars: number;
}

/** Deep enough for a record around a model's arguments (which nest at most 32 levels by default). */
export const CANONICAL_LIMITS: CanonicalLimits = Object.freeze({ maxDepth: 64, maxChars: 16 * 1024 * 1024 });

/**
 * Encodes a value as canonical JSON: object keys sorted by UTF-16 code
 * units at every level, no whitespace, properties whose value is
 * `undefined` left out, numbers and strings as `JSON.stringify` writes them
 * (which escapes a lone surrogate, so no two strings share an encoding).
 *
 * @param value Plain JSON: null, booleans, finite numbers, strings, arrays
 *   and plain objects.
 * @param limits The bounds on depth and length.
 * @returns The canonical text.
 * @throws {TypeError} For a value that is not plain JSON (a function, a
 *   BigInt, a symbol, NaN or Infinity, `undefined` in an array, a class
 *   instance, a cycle).
 * @throws {RangeError} For a value nested deeper than `maxDepth` or encoding
 *   to more than `maxChars`.
 * Whatever a getter or a proxy trap throws is thrown as it is.
 */
export function canonicalJson(value: unknown, limits: CanonicalLimits = CANONICAL_LIMITS): string {
  const encoder = new Encoder(limits);
  encoder.value(value, 1);
  return encoder.parts.join("");
}

class Encoder {
  readonly parts: string[] = [];
  readonly #limits: CanonicalLimits;
  #chars = 0;
  readonly #path: string[] = [];
  readonly #open = new Set<object>();

  constructor(limits: CanonicalLimits) {
    this.#limits = limits;
  }

  value(value: unknown, depth: number): void {
    switch (typeof value) {
      case "string":
        return this.#push(JSON.stringify(value));
      case "number":
        if (!Number.isFinite(value)) this.#refuse(`holds the number ${value}, which JSON cannot carry`);
        return this.#push(JSON.stringify(value));
      case "boolean":
        return this.#push(value ? "true" : "false");
      case "object":
        if (value === null) return this.#push("null");
        return this.#container(value, depth);
      default:
        this.#refuse(
          `holds ${typeof value === "undefined" ? "undefined" : `a ${typeof value}`}, which JSON cannot carry`,
        );
    }
  }

  #container(value: object, depth: number): void {
    if (depth > this.#limits.maxDepth) {
      throw new RangeError(`Cannot encode the value as it nests deeper than ${this.#limits.maxDepth} levels`);
    }
    if (this.#open.has(value)) this.#refuse("holds a cycle");
    this.#open.add(value);
    if (Array.isArray(value)) this.#array(value, depth);
    else this.#object(value, depth);
    this.#open.delete(value);
  }

  #array(value: readonly unknown[], depth: number): void {
    const length = value.length;
    this.#push("[");
    for (let i = 0; i < length; i++) {
      if (i > 0) this.#push(",");
      this.#path.push(String(i));
      const item = value[i];
      if (item === undefined) this.#refuse("holds undefined in an array, which JSON would turn into null");
      this.value(item, depth + 1);
      this.#path.pop();
    }
    this.#push("]");
  }

  #object(value: object, depth: number): void {
    const proto = Object.getPrototypeOf(value);
    // An object from another realm has that realm's Object.prototype, whose own prototype is null.
    if (proto !== Object.prototype && proto !== null && Object.getPrototypeOf(proto) !== null) {
      this.#refuse("holds an object that is neither a plain object nor an array");
    }
    // The default sort compares UTF-16 code units, as RFC 8785 does.
    const keys = Object.keys(value).sort();
    this.#push("{");
    let first = true;
    for (const key of keys) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      this.#push(first ? JSON.stringify(key) : `,${JSON.stringify(key)}`);
      this.#push(":");
      first = false;
      this.#path.push(key);
      this.value(item, depth + 1);
      this.#path.pop();
    }
    this.#push("}");
  }

  #push(text: string): void {
    this.#chars += text.length;
    if (this.#chars > this.#limits.maxChars) {
      throw new RangeError(`Cannot encode the value as its JSON exceeds ${this.#limits.maxChars} characters`);
    }
    this.parts.push(text);
  }

  #refuse(what: string): never {
    const at = this.#path.length === 0 ? "" : ` at ${toPointer(this.#path)}`;
    throw new TypeError(`Cannot encode the value as JSON as it ${what}${at}`);
  }
}
