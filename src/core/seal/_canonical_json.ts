// The one text a sealed record's MAC covers. Two records that mean the same
// JSON encode to the same text whatever the order of their keys, and two
// that mean different JSON never do, so a MAC cannot be moved from one to
// the other. It reads each property once, into a plain copy of what the
// text says, so a getter cannot show the encoder one value and the caller
// another, and it refuses what would not survive storage as JSON, rather
// than sealing a value that reads back changed.
//
// A record to verify comes from storage, where anyone may have written it:
// the encoder works a value (or a piece of a long string or key) at a step,
// on a stack of its own, so that verifying a long one can yield between
// steps rather than hold the host for the whole walk. It pauses by the work
// done, values and characters written, as a few long strings to escape cost
// as much as many thousands of small values.

import { toPointer } from "../common/_json_pointer.ts";
import { setOwn } from "../common/_set_own.ts";

/** The encoder's bounds: how deep a value may nest, how long its text may grow, how many members an object holds. */
export interface CanonicalLimits {
  /** The deepest nesting of arrays and objects; the top-level value is depth 1. */
  readonly maxDepth: number;
  /** The longest text, in UTF-16 code units. */
  readonly maxChars: number;
  /** The most members one object may hold: its keys are listed and sorted in one stretch. */
  readonly maxMembers: number;
  /** The most UTF-16 code units the keys of one object may hold together, as a sort compares them all. */
  readonly maxKeyChars: number;
}

/**
 * Deep enough for a record around a model's arguments (which nest at most 32 levels by default); an object of
 * 50,000 members takes about 25 ms to list and sort its keys on two cores, and 49,000 keys sharing 300 characters
 * before they differ (15 Mi characters) 30–36 ms to sort alone: its keys may hold 1 Mi characters together.
 */
export const CANONICAL_LIMITS: CanonicalLimits = Object.freeze({
  maxDepth: 64,
  maxChars: 16 * 1024 * 1024,
  maxMembers: 50_000,
  maxKeyChars: 1024 * 1024,
});

/** A value read once: its canonical text, and a plain copy of what that text says. */
export interface Canonical {
  /**
   * The text, in pieces of a few KiB that each hold whole characters (their UTF-8 bytes, put together, are the
   * text's): joined or encoded a piece at a time, a long text need not be copied whole in one stretch.
   */
  readonly pieces: readonly string[];
  /** What `JSON.parse` returns for the text, built as the value was read. */
  readonly copy: unknown;
}

/** How many values (or pieces of a long string) the paced encoder reads between two pauses, at most. */
const STEPS_PER_PAUSE = 1_024;
/** How many characters the paced encoder writes between two pauses, at most (but for the last step's). */
const CHARS_PER_PAUSE = 64 * 1024;
/** The longest run of a string escaped in one step. */
const STRING_PIECE = 64 * 1024;
/** How many characters of the small texts the encoder writes are joined into one piece, at most (but for the last). */
const PIECE_CHARS = 64 * 1024;

/**
 * Reads a value once into canonical JSON and a plain copy of what that text
 * says: object keys sorted by UTF-16 code units at every level, no
 * whitespace, properties whose value is `undefined` left out, numbers and
 * strings as `JSON.stringify` writes them (which escapes a lone surrogate,
 * so no two strings share an encoding).
 *
 * @param value Plain JSON: null, booleans, finite numbers, strings, arrays
 *   and plain objects.
 * @param limits The bounds on depth, length and members.
 * @param members Members of the top-level object written with these values (plain JSON), in place of its own of the
 *   same name (which are then not read) or beside them.
 * @returns The text, in pieces, and the copy.
 * @throws {TypeError} For a value that is not plain JSON (a function, a
 *   BigInt, a symbol, NaN or Infinity, `undefined` in an array, a class
 *   instance, a cycle).
 * @throws {RangeError} For a value nested deeper than `maxDepth`, encoding
 *   to more than `maxChars`, or with an object of more than `maxMembers` or of keys over `maxKeyChars` together.
 * Whatever a getter or a proxy trap throws is thrown as it is.
 */
export function canonicalRead(
  value: unknown,
  limits: CanonicalLimits = CANONICAL_LIMITS,
  members?: Readonly<Record<string, unknown>>,
): Canonical {
  const encoder = new Encoder(value, limits, members);
  encoder.run(Infinity, Infinity);
  return encoder.result();
}

/**
 * As {@linkcode canonicalRead} within {@linkcode CANONICAL_LIMITS}, awaiting
 * `pause` between steps of at most a thousand values or 64 KiB of text, so
 * that a long value does not hold the event loop while it is read. A value
 * changed while it is read is read partly before the change and partly
 * after: the copy is still what the text says.
 *
 * @param value Plain JSON.
 * @param pause Awaited between steps; it yields when the time comes.
 * @param members As {@linkcode canonicalRead}'s.
 * @returns The text, in pieces, and the copy.
 * @throws {TypeError} As {@linkcode canonicalRead}.
 * @throws {RangeError} As {@linkcode canonicalRead}.
 */
export async function canonicalReadPaced(
  value: unknown,
  pause: () => Promise<void>,
  members?: Readonly<Record<string, unknown>>,
): Promise<Canonical> {
  const encoder = new Encoder(value, CANONICAL_LIMITS, members);
  while (!encoder.run(STEPS_PER_PAUSE, CHARS_PER_PAUSE)) await pause();
  return encoder.result();
}

/** An array or object being read: what it is read from, the copy made of it, and how far the reading is. */
type Frame =
  | {
    readonly kind: "array";
    readonly source: readonly unknown[];
    readonly length: number;
    readonly copy: unknown[];
    /** The items taken so far; the last one taken is the one being read. */
    taken: number;
    readonly depth: number;
  }
  | {
    readonly kind: "object";
    readonly source: Readonly<Record<string, unknown>>;
    readonly keys: readonly string[];
    readonly copy: Record<string, unknown>;
    taken: number;
    /** The members written so far (a key whose value is `undefined` is not). */
    written: number;
    readonly depth: number;
    /** Values written for some members instead of the source's: the top-level object's `members`. */
    readonly members: Readonly<Record<string, unknown>> | undefined;
    /** The value of the member whose long key is being written: written in the step after the key's last. */
    pending: unknown;
  }
  | {
    /** A string (or key) longer than a piece, escaped a piece at a time. */
    readonly kind: "string";
    readonly source: string;
    at: number;
    /** What is written after it: its closing quote (and a key's colon). */
    readonly close: string;
  };

class Encoder {
  readonly #pieces: string[] = [];
  /** What is written since the last piece was cut. */
  #parts: string[] = [];
  /** Their length. */
  #partChars = 0;
  readonly #limits: CanonicalLimits;
  readonly #stack: Frame[] = [];
  readonly #open = new Set<object>();
  readonly #copy: unknown;
  readonly #members: Readonly<Record<string, unknown>> | undefined;
  #chars = 0;

  constructor(value: unknown, limits: CanonicalLimits, members?: Readonly<Record<string, unknown>>) {
    this.#limits = limits;
    this.#members = members;
    this.#copy = this.#value(value, 1);
  }

  /** Reads up to `steps` values, or until `chars` characters are written; true once the whole value is read. */
  run(steps: number, chars: number): boolean {
    const stack = this.#stack;
    const until = this.#chars + chars;
    for (let step = 0; step < steps && this.#chars < until && stack.length > 0; step++) {
      const frame = stack[stack.length - 1];
      if (frame.kind === "string") {
        this.#stringPiece(frame);
      } else if (frame.kind === "array") {
        if (frame.taken === frame.length) {
          this.#close(frame, "]");
          continue;
        }
        if (frame.taken > 0) this.#push(",");
        const item = frame.source[frame.taken++];
        if (item === undefined) this.#refuse("holds undefined in an array, which JSON would turn into null");
        frame.copy.push(this.#value(item, frame.depth + 1));
      } else {
        if (frame.pending !== undefined) {
          const item = frame.pending;
          frame.pending = undefined;
          this.#member(frame, item);
          continue;
        }
        if (frame.taken === frame.keys.length) {
          this.#close(frame, "}");
          continue;
        }
        const key = frame.keys[frame.taken++];
        const item = frame.members !== undefined && Object.hasOwn(frame.members, key)
          ? frame.members[key]
          : frame.source[key];
        if (item === undefined) {
          // Left out, but listed and sorted all the same: charged, so that an object of many such members, shared by
          // reference many times (a store that keeps undefined), cannot cost hours within the character bound.
          this.#count(key.length + 1);
          continue;
        }
        const comma = frame.written++ > 0 ? "," : "";
        if (key.length <= STRING_PIECE) {
          this.#push(`${comma}${quoted(key)}:`);
          this.#member(frame, item);
        } else {
          this.#longString(key, `${comma}"`, '":');
          frame.pending = item;
        }
      }
    }
    return stack.length === 0;
  }

  result(): Canonical {
    this.#cut();
    return { pieces: this.#pieces, copy: this.#copy };
  }

  /** Writes a value, or opens its frame: returns its copy (a container's, still to be filled). */
  #value(value: unknown, depth: number): unknown {
    switch (typeof value) {
      case "string":
        if (value.length <= STRING_PIECE) this.#push(quoted(value));
        else this.#longString(value, '"', '"');
        return value;
      case "number":
        if (!Number.isFinite(value)) this.#refuse(`holds the number ${value}, which JSON cannot carry`);
        // As JSON.stringify writes a finite number.
        this.#push(String(value));
        // JSON writes -0 as 0.
        return value === 0 ? 0 : value;
      case "boolean":
        this.#push(value ? "true" : "false");
        return value;
      case "object":
        if (value === null) {
          this.#push("null");
          return null;
        }
        return this.#container(value, depth);
      default:
        this.#refuse(
          `holds ${typeof value === "undefined" ? "undefined" : `a ${typeof value}`}, which JSON cannot carry`,
        );
    }
  }

  #container(value: object, depth: number): unknown {
    if (depth > this.#limits.maxDepth) {
      throw new RangeError(`Cannot encode the value as it nests deeper than ${this.#limits.maxDepth} levels`);
    }
    if (this.#open.has(value)) this.#refuse("holds a cycle");
    if (Array.isArray(value)) {
      const copy: unknown[] = [];
      this.#open.add(value);
      this.#stack.push({ kind: "array", source: value, length: value.length, copy, taken: 0, depth });
      this.#push("[");
      return copy;
    }
    const proto = Object.getPrototypeOf(value);
    // An object from another realm has that realm's Object.prototype, whose own prototype is null.
    if (proto !== Object.prototype && proto !== null && Object.getPrototypeOf(proto) !== null) {
      this.#refuse("holds an object that is neither a plain object nor an array");
    }
    const keys = Object.keys(value);
    const members = depth === 1 ? this.#members : undefined;
    if (members !== undefined) {
      for (const key of Object.keys(members)) if (!keys.includes(key)) keys.push(key);
    }
    if (keys.length > this.#limits.maxMembers) {
      throw new RangeError(
        `Cannot encode the value as an object holds more than ${this.#limits.maxMembers} members: current count is ${keys.length}`,
      );
    }
    let keyChars = 0;
    for (const key of keys) keyChars += key.length;
    if (keyChars > this.#limits.maxKeyChars) {
      throw new RangeError(
        `Cannot encode the value as an object's keys hold more than ${this.#limits.maxKeyChars} characters together: current count is ${keyChars}`,
      );
    }
    // The default sort compares UTF-16 code units, as RFC 8785 does.
    keys.sort();
    const copy: Record<string, unknown> = {};
    this.#open.add(value);
    this.#stack.push({
      kind: "object",
      source: value as Record<string, unknown>,
      keys,
      copy,
      taken: 0,
      written: 0,
      depth,
      members,
      pending: undefined,
    });
    this.#push("{");
    return copy;
  }

  #close(frame: Frame & { readonly kind: "array" | "object" }, bracket: string): void {
    this.#stack.pop();
    this.#open.delete(frame.source);
    this.#push(bracket);
  }

  /** Writes the value of the member whose key was written last. */
  #member(frame: Frame & { readonly kind: "object" }, item: unknown): void {
    setOwn(frame.copy, frame.keys[frame.taken - 1], this.#value(item, frame.depth + 1));
  }

  /** Opens the frame of a string longer than a piece, written between `open` and `close`. */
  #longString(text: string, open: string, close: string): void {
    // Longer than its text may be, it is refused before any of it is escaped.
    this.#within(open.length + text.length + close.length);
    this.#push(open);
    this.#stack.push({ kind: "string", source: text, at: 0, close });
  }

  /** Escapes the next piece of a long string; a piece never ends between the two halves of a surrogate pair. */
  #stringPiece(frame: Frame & { readonly kind: "string" }): void {
    const { source } = frame;
    let end = Math.min(source.length, frame.at + STRING_PIECE);
    if (end < source.length && isHighSurrogate(source.charCodeAt(end - 1))) end--;
    const escaped = JSON.stringify(source.slice(frame.at, end));
    this.#count(escaped.length - 2);
    this.#cut();
    this.#pieces.push(escaped.slice(1, -1));
    frame.at = end;
    if (end === source.length) {
      this.#stack.pop();
      this.#push(frame.close);
    }
  }

  #push(text: string): void {
    this.#count(text.length);
    this.#parts.push(text);
    this.#partChars += text.length;
    if (this.#partChars >= PIECE_CHARS) this.#cut();
  }

  /** Joins what was written since the last cut into a piece. */
  #cut(): void {
    if (this.#parts.length === 0) return;
    this.#pieces.push(this.#parts.join(""));
    this.#parts = [];
    this.#partChars = 0;
  }

  #count(chars: number): void {
    this.#within(chars);
    this.#chars += chars;
  }

  /** Throws when `chars` more characters would pass the bound. */
  #within(chars: number): void {
    if (this.#chars + chars > this.#limits.maxChars) {
      throw new RangeError(`Cannot encode the value as its JSON exceeds ${this.#limits.maxChars} characters`);
    }
  }

  /** Throws, naming where: each open container's member being read. */
  #refuse(what: string): never {
    const path: string[] = [];
    for (const frame of this.#stack) {
      if (frame.kind === "array") path.push(String(frame.taken - 1));
      else if (frame.kind === "object") path.push(frame.keys[frame.taken - 1]);
    }
    const at = path.length === 0 ? "" : ` at ${toPointer(path)}`;
    throw new TypeError(`Cannot encode the value as JSON as it ${what}${at}`);
  }
}

/** What JSON.stringify escapes in a string: quotes, backslashes, control characters and surrogates (lone ones). */
// deno-lint-ignore no-control-regex -- control characters are what JSON escapes
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as JSON.stringify writes it: most need no escape, and are quoted faster than it quotes them. */
function quoted(text: string): string {
  return ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
