// JSON.parse for a long message, in pieces, yielding to the event loop
// between them. A server's one line is parsed by JSON.parse in one native
// stretch: 8 MiB of `[{},{},...]` held the host for 0.3–0.5 s, 8 MiB of
// objects with unique keys for 0.5 s, and a message may be 6 MiB long.
//
// The text is cut along its own structure: the members of a long array or
// object are parsed natively a batch at a time (each batch at most `piece`
// characters), a member longer than that is descended into, and a long
// string is decoded a piece at a time. Every piece goes through JSON.parse,
// so what is accepted, and what each value becomes, is JSON.parse's own
// verdict; only the joining is ours, and the bounds (a number longer than
// MAX_TOKEN_CHARS, containers longer than a piece nested deeper than
// MAX_LONG_DEPTH, and the caller's on members and values).

import { setOwn } from "../core/common/_set_own.ts";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const LETTER_U = 0x75;

/** The most characters parsed natively in one piece. */
export const PIECE_CHARS: number = 64 * 1024;
/** The deepest nesting of containers that are each longer than a piece. */
export const MAX_LONG_DEPTH: number = 100;
/**
 * The longest number (or other bare token) read: JSON.parse reads a number of any length in one stretch, and
 * 30 MB of digits took 0.7 s. No number worth its digits is longer.
 */
export const MAX_TOKEN_CHARS: number = 64 * 1024;

/**
 * The most members an object of a long message may hold: the SDK copies every member of the objects it
 * checks (a result, params, `_meta`, `structuredContent`), about 1.5 µs each, in one stretch.
 */
export const MAX_OBJECT_MEMBERS: number = 10_000;
/**
 * The most values a long message may hold. A value costs the heap up to about 70 bytes and JSON as few as
 * 3 (`{},`): 60 MB of them (20 million) took 1.5 GB of heap, and collecting them paused the host for 0.35 s.
 * Half a million take about 50 MB, and a collection of them about 10–20 ms.
 */
export const MAX_MESSAGE_VALUES: number = 500_000;

/** What {@linkcode PacedReader} finds scanning a container's inside within a piece. */
interface Scan {
  /** The bracket that closes the container, or -1 when the piece ends first. */
  readonly close: number;
  /** The last comma between the container's own members before that, or -1. */
  readonly lastComma: number;
  /** The values up to the close (or the piece's end), and up to the last comma. */
  readonly values: number;
  readonly valuesToComma: number;
  /** How deep containers nest inside the scanned stretch, counted from its container's inside. */
  readonly deepest: number;
}

interface Frame {
  readonly value: unknown[] | Record<string, unknown>;
  /** The bracket that closes it. */
  readonly close: number;
  /** What comes next: the first member or the close, a member (after a comma), or a comma or the close. */
  next: "first" | "member" | "comma";
  /** The key waiting for its value, in an object. */
  key?: string;
  /** Members set so far, in an object (a repeated key counts again). */
  members: number;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** How {@linkcode parsePaced} reads a text. */
export interface PacedOptions {
  /** The most characters parsed natively at once (smaller in tests). Default {@linkcode PIECE_CHARS}. */
  readonly piece?: number;
  /** The most members an object longer than a piece may hold. Default: no bound. */
  readonly maxMembers?: number;
  /**
   * The most values a text longer than a piece may hold (a shorter one holds at most half as many values as
   * characters). They are counted as the commas between members and the containers that hold any, which
   * come to one fewer than the values. Default: no bound.
   */
  readonly maxValues?: number;
  /**
   * How deep containers may nest, however short: JSON.parse reads a short container whole at any depth, and a
   * reader that recurses (a schema check) overflows the stack on one 20,000 deep. Default: only the bound on long
   * containers, {@linkcode MAX_LONG_DEPTH}.
   */
  readonly maxDepth?: number;
}

/** The bounds on a long MCP message, either way: what the SDK checks of it in one stretch, and what it costs the heap. */
export const MESSAGE_BOUNDS: PacedOptions = Object.freeze({
  maxMembers: MAX_OBJECT_MEMBERS,
  maxValues: MAX_MESSAGE_VALUES,
});

/**
 * Parses JSON text as `JSON.parse(text)` does, calling `pause` between pieces
 * of at most `piece` characters, so that a long text never holds the event loop
 * for long.
 *
 * @param text The JSON text.
 * @param pause Awaited between pieces; it yields when the time comes.
 * @param options The piece size, and a bound on members.
 * @returns What `JSON.parse(text)` returns.
 * @throws {SyntaxError} When `JSON.parse(text)` would, and no bound below is found passed first.
 * @throws {RangeError} When more than {@linkcode MAX_LONG_DEPTH} containers, each longer than a piece, nest, an
 * object longer than a piece holds more than `maxMembers` members, the text more than `maxValues` values, or a number
 * longer than {@linkcode MAX_TOKEN_CHARS} characters, or containers of any length nest more than `maxDepth` deep. A
 * text with more commas than `maxValues` allows is refused so before it is read, malformed or not.
 */
export async function parsePaced(
  text: string,
  pause: () => Promise<void>,
  options: PacedOptions = {},
): Promise<unknown> {
  const { piece = PIECE_CHARS, maxMembers = Infinity, maxValues = Infinity, maxDepth = Infinity } = options;
  if (text.length <= piece) {
    const value = JSON.parse(text);
    holdDepth(value, maxDepth);
    return value;
  }
  await refuseCommasPast(text, pause, piece, maxValues);
  return await new PacedReader(text, pause, piece, maxMembers, maxValues, maxDepth).read();
}

/**
 * Whether a parsed JSON value holds containers nested more than `levels` deep (the value itself is the first level).
 * Walked in place: copying each object's values (`Object.values`) made the walk of 340,000 small objects hold the
 * loop ten times longer.
 *
 * @param value The value.
 * @param levels The most levels allowed; `Infinity` walks nothing.
 * @returns Whether it nests deeper.
 */
export function nestsPast(value: unknown, levels: number): boolean {
  if (typeof value !== "object" || value === null || levels === Infinity) return false;
  if (levels === 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (nestsPast(value[i], levels - 1)) return true;
  } else {
    for (const key in value) if (nestsPast((value as Record<string, unknown>)[key], levels - 1)) return true;
  }
  return false;
}

/**
 * Refuses a parsed value whose containers nest more than `maxDepth` deep, as {@linkcode parsePaced} refuses such a
 * text.
 *
 * @param value The parsed value.
 * @param maxDepth The most levels allowed.
 * @throws {RangeError} When it nests deeper.
 */
export function holdDepth(value: unknown, maxDepth: number): void {
  if (nestsPast(value, maxDepth)) throw tooDeep(maxDepth);
}

function tooDeep(maxDepth: number, at?: number): RangeError {
  const where = at === undefined ? "" : `: current position is ${at}`;
  return new RangeError(`Cannot parse the JSON text as its containers nest more than ${maxDepth} deep${where}`);
}

/**
 * Refuses, before anything is built, a text whose commas alone pass the bound on values. The reader counts values
 * as it builds them, so a flood of small ones (`[{},{},...]`) was built up to the bound before it was refused, and
 * collecting the half million objects paused the host for 20–30 ms at a time. The reader counts every comma but the
 * one after a member longer than a piece, so this allows one more a piece: a well-formed text it refuses, the reader
 * would too (a malformed one the reader might refuse as malformed first).
 */
async function refuseCommasPast(
  text: string,
  pause: () => Promise<void>,
  piece: number,
  maxValues: number,
): Promise<void> {
  const allowed = maxValues + Math.ceil(text.length / piece);
  let commas = 0;
  // Strings are stepped through here, not skipped with quoteAfter, so that the scan pauses inside a long one too: a
  // string of many escaped quotes is as long to scan as the text.
  let inString = false;
  for (let i = 0, next = piece; i < text.length; i++) {
    if (i >= next) {
      await pause();
      next = i + piece;
    }
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === COMMA && ++commas > allowed) {
      throw new RangeError(
        `Cannot parse the JSON text as it holds more than ${maxValues} values: current position is ${i}`,
      );
    }
  }
}

class PacedReader {
  readonly #text: string;
  readonly #pause: () => Promise<void>;
  readonly #piece: number;
  readonly #maxMembers: number;
  readonly #maxValues: number;
  readonly #maxDepth: number;
  #at = 0;
  /** The containers and commas of the text read so far. */
  #values = 0;

  constructor(
    text: string,
    pause: () => Promise<void>,
    piece: number,
    maxMembers: number,
    maxValues: number,
    maxDepth: number,
  ) {
    this.#text = text;
    this.#pause = pause;
    this.#piece = piece;
    this.#maxMembers = maxMembers;
    this.#maxValues = maxValues;
    this.#maxDepth = maxDepth;
  }

  /** Reads the text's one value, descending into long containers with a stack of frames. */
  async read(): Promise<unknown> {
    const frames: Frame[] = [];
    let result: unknown;
    const place = (value: unknown) => {
      const frame = frames.at(-1);
      if (frame === undefined) result = value;
      else if (Array.isArray(frame.value)) frame.value.push(value);
      else {
        this.#count(frame, 1);
        setOwn(frame.value, frame.key!, value);
      }
    };
    const closeTop = () => place(frames.pop()!.value);
    const top = await this.#member(frames);
    if (top !== DESCENDED) result = top;
    while (frames.length > 0) {
      const frame = frames.at(-1)!;
      if (frame.next === "comma") {
        await this.#skipSpace();
        const code = this.#text.charCodeAt(this.#at++);
        if (code === frame.close) {
          closeTop();
          continue;
        }
        if (code !== COMMA) this.#fail("expected a comma or the end of a container");
        frame.next = "member";
      }
      if (await this.#batch(frame, frames.length)) {
        closeTop();
        continue;
      }
      // The next member alone is longer than a piece, or white space is, before the close.
      await this.#skipSpace();
      if (this.#text.charCodeAt(this.#at) === frame.close) {
        if (frame.next === "member") this.#fail("expected a member");
        this.#at++;
        closeTop();
        continue;
      }
      if (!Array.isArray(frame.value)) frame.key = await this.#key();
      frame.next = "comma";
      const member = await this.#member(frames);
      if (member !== DESCENDED) place(member);
    }
    await this.#skipSpace();
    if (this.#at < this.#text.length) this.#fail("unexpected text after the value");
    return result;
  }

  /**
   * Reads the value at the position: natively when it fits a piece, a long string in pieces, or a long
   * container by pushing its frame (and returning {@linkcode DESCENDED}).
   */
  async #member(frames: Frame[]): Promise<unknown> {
    await this.#skipSpace();
    const text = this.#text;
    const code = text.charCodeAt(this.#at);
    if (code === QUOTE) return await this.#string();
    if (code !== OPEN_BRACE && code !== OPEN_BRACKET) {
      // A number or a literal: it ends at the first character no such token has.
      const start = this.#at;
      const limit = Math.min(text.length, start + MAX_TOKEN_CHARS + 1);
      while (this.#at < limit && !isDelimiter(text.charCodeAt(this.#at))) this.#at++;
      if (this.#at - start > MAX_TOKEN_CHARS) {
        throw new RangeError(
          `Cannot parse the JSON text as a number or literal is longer than ${MAX_TOKEN_CHARS} characters: current position is ${start}`,
        );
      }
      return JSON.parse(text.slice(start, this.#at));
    }
    const end = this.#containerEnd(this.#at, frames.length + 1);
    if (end !== -1) {
      const value = JSON.parse(text.slice(this.#at, end + 1));
      this.#at = end + 1;
      await this.#pause();
      return value;
    }
    // The scan above read a piece's worth without finding the end.
    await this.#pause();
    if (frames.length >= this.#maxDepth) throw tooDeep(this.#maxDepth, this.#at);
    if (frames.length >= MAX_LONG_DEPTH) {
      // A bound, as the others: the text may be JSON all the same.
      throw new RangeError(
        `Cannot parse the JSON text as more than ${MAX_LONG_DEPTH} containers longer than ${this.#piece} characters nest: current position is ${this.#at}`,
      );
    }
    if (holdsMembers(text, this.#at, this.#at + this.#piece)) this.#countValues(1);
    const close = code === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
    const value = code === OPEN_BRACE ? {} : [];
    frames.push({ value, close, next: "first", members: 0 });
    this.#at++;
    return DESCENDED;
  }

  /** Reads an object's key and its colon. */
  async #key(): Promise<string> {
    await this.#skipSpace();
    if (this.#text.charCodeAt(this.#at) !== QUOTE) this.#fail("expected a key");
    const key = await this.#string();
    await this.#skipSpace();
    if (this.#text.charCodeAt(this.#at++) !== COLON) this.#fail("expected a colon after a key");
    return key;
  }

  /**
   * Parses, a piece at a time, the whole members from the position on, up to the container's close (true)
   * or to a member longer than a piece (false, with the position at its start).
   */
  async #batch(frame: Frame, open: number): Promise<boolean> {
    const text = this.#text;
    for (;;) {
      const start = this.#at;
      const scan = this.#scan(start, Math.min(text.length, start + this.#piece));
      this.#holdDepth(open + scan.deepest);
      if (scan.close !== -1) {
        if (text.charCodeAt(scan.close) !== frame.close) {
          this.#fail("a container closes with the other kind of bracket");
        }
        this.#countValues(scan.values);
        // Nothing before the close is an empty container, unless a comma came before it.
        if (!isBlank(text, start, scan.close) || frame.next === "member") {
          this.#merge(frame, text.slice(start, scan.close));
        }
        this.#at = scan.close + 1;
        await this.#pause();
        return true;
      }
      if (scan.lastComma === -1) {
        await this.#pause();
        return false;
      }
      // Values are counted up to where the batch ends: what follows its last comma is read again.
      this.#countValues(scan.valuesToComma);
      this.#merge(frame, text.slice(start, scan.lastComma));
      this.#at = scan.lastComma + 1;
      frame.next = "member";
      await this.#pause();
    }
  }

  /**
   * Scans a container's inside from `from` to `limit` (strings skipped whole) for the bracket that closes it
   * and the last comma between its own members, counting values (commas, and containers that hold members)
   * up to each.
   */
  #scan(from: number, limit: number): Scan {
    const text = this.#text;
    let depth = 0;
    let deepest = 0;
    let lastComma = -1;
    let values = 0;
    let valuesToComma = 0;
    for (let i = from; i < limit; i++) {
      const code = text.charCodeAt(i);
      if (code === QUOTE) {
        i = quoteAfter(text, i, limit);
        if (i === -1) break;
      } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        if (++depth > deepest) deepest = depth;
        if (holdsMembers(text, i, limit)) values++;
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        if (depth-- === 0) return { close: i, lastComma, values, valuesToComma, deepest };
      } else if (code === COMMA) {
        values++;
        if (depth === 0) {
          lastComma = i;
          valuesToComma = values;
        }
      }
    }
    return { close: -1, lastComma, values, valuesToComma, deepest };
  }

  /** Adds the members in a batch's text to a frame, parsed natively as a container of their own. */
  #merge(frame: Frame, members: string): void {
    // "[]" would take a missing member for an empty list.
    if (isBlank(members, 0, members.length)) this.#fail("expected a member");
    if (Array.isArray(frame.value)) {
      for (const item of JSON.parse(`[${members}]`) as unknown[]) frame.value.push(item);
      return;
    }
    const parsed = JSON.parse(`{${members}}`) as Record<string, unknown>;
    const keys = Object.keys(parsed);
    this.#count(frame, keys.length);
    for (const key of keys) setOwn(frame.value, key, parsed[key]);
  }

  #countValues(added: number): void {
    this.#values += added;
    if (this.#values > this.#maxValues) {
      throw new RangeError(
        `Cannot parse the JSON text as it holds more than ${this.#maxValues} values: current position is ${this.#at}`,
      );
    }
  }

  #count(frame: Frame, added: number): void {
    frame.members += added;
    if (frame.members > this.#maxMembers) {
      throw new RangeError(
        `Cannot parse the JSON text as an object holds more than ${this.#maxMembers} members: current position is ${this.#at}`,
      );
    }
  }

  /**
   * Reads the string at the position. A run of it with no escape and no control character is its own value,
   * taken as a slice of the text (not copied, and not joined from pieces that would be copied whole when
   * first read); a run with either is decoded by JSON.parse a piece at a time.
   */
  async #string(): Promise<string> {
    const text = this.#text;
    // The run not yet decoded starts at `run`; `plain` while it holds neither an escape nor a control character.
    let run = this.#at + 1;
    let plain = true;
    let decoded = "";
    let pausedAt = run;
    for (let i = run; i < text.length; i++) {
      // Here a character or an escape starts, so a cut splits neither.
      if (i - pausedAt >= this.#piece) {
        if (!plain) {
          decoded += JSON.parse(`"${text.slice(run, i)}"`);
          run = i;
          plain = true;
        }
        pausedAt = i;
        await this.#pause();
      }
      const code = text.charCodeAt(i);
      if (code === QUOTE) {
        decoded += plain ? text.slice(run, i) : JSON.parse(`"${text.slice(run, i)}"`);
        this.#at = i + 1;
        return decoded;
      }
      if (code === BACKSLASH || code < 0x20) {
        if (plain) {
          decoded += text.slice(run, i);
          run = i;
          plain = false;
        }
        // An escape is read whole: \uXXXX is six characters, any other two.
        if (code === BACKSLASH) i += text.charCodeAt(i + 1) === LETTER_U ? 5 : 1;
      }
    }
    return this.#fail("a string does not end");
  }

  /**
   * The index of the bracket that closes the container opened at `start`, or -1 past a piece. The values of a
   * container found whole are counted; one not found is read again, member by member.
   */
  #containerEnd(start: number, open: number): number {
    const limit = Math.min(this.#text.length, start + this.#piece);
    const scan = this.#scan(start + 1, limit);
    this.#holdDepth(open + scan.deepest);
    if (scan.close !== -1) this.#countValues(scan.values + (holdsMembers(this.#text, start, limit) ? 1 : 0));
    return scan.close;
  }

  /** Refuses containers nested past the reader's bound, seen by a scan before they are parsed. */
  #holdDepth(depth: number): void {
    if (depth > this.#maxDepth) throw tooDeep(this.#maxDepth, this.#at);
  }

  async #skipSpace(): Promise<void> {
    this.#at = await afterSpace(this.#text, this.#at, this.#pause, this.#piece);
  }

  #fail(what: string): never {
    throw new SyntaxError(`Cannot parse the JSON text as ${what}: current position is ${this.#at}`);
  }
}

/**
 * Why a text could not be read, for a message of the reader's own: the part of a parse error's message
 * after its "Cannot ... as ", at most 1,000 characters.
 *
 * @param error What {@linkcode parsePaced} (or a check after it) threw.
 * @returns The reason.
 */
export function reasonOf(error: unknown): string {
  return (error instanceof Error ? error.message.replace(/^Cannot [^:]*? as /, "") : String(error)).slice(0, 1_000);
}

/** Marks a member that was not read as a value: its container's frame was pushed instead. */
const DESCENDED = Symbol("descended");

function isDelimiter(code: number): boolean {
  return isSpace(code) || code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET || code === COLON;
}

/**
 * Whether the container opened at `open` holds a member: what follows it, past white space, is no bracket that
 * closes. White space that runs to `limit` says no: the count of values may fall short, never run over.
 */
function holdsMembers(text: string, open: number, limit: number): boolean {
  const end = Math.min(text.length, limit);
  let next = open + 1;
  while (next < end && isSpace(text.charCodeAt(next))) next++;
  if (next >= end) return false;
  const code = text.charCodeAt(next);
  return code !== CLOSE_BRACE && code !== CLOSE_BRACKET;
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

/** What a JSON text's outermost object says of itself at its top level: its id, and whether it is a request. */
export interface TopLevel {
  /** The `id` member's value, when it is a number or a string of at most `maxString` characters. */
  readonly id?: number | string;
  /**
   * Whether the object is a JSON-RPC request (a notification when it has no id): it has a `method` or a `params`
   * member, which no answer has. A request whose method comes after a long `params` is told by that.
   */
  readonly isRequest: boolean;
}

/**
 * Finds the `id`, `method` and `params` members of a text's outermost object without
 * parsing the rest, for a text that could not be parsed whole: its members
 * may come in any order, and what is malformed may lie anywhere.
 *
 * @param text The JSON text of one object.
 * @param pause Awaited now and then during the scan.
 * @param maxString The longest string id taken.
 * @returns What was found; nothing when the text is not an object.
 */
export async function topLevelOf(text: string, pause: () => Promise<void>, maxString: number): Promise<TopLevel> {
  let id: number | string | undefined;
  let isRequest = false;
  let depth = 0;
  let checkedAt = 0;
  for (let i = 0; i < text.length; i++) {
    if (i - checkedAt >= PIECE_CHARS) {
      checkedAt = i;
      await pause();
    }
    const code = text.charCodeAt(i);
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (depth === 0 && code === OPEN_BRACKET) break;
      depth++;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      if (--depth === 0) break;
    } else if (code === QUOTE) {
      const end = await stringEnd(text, i, pause);
      if (end === -1) break;
      // A key of the outermost object is a string at depth 1 followed by a colon.
      if (depth === 1 && end - i <= 16) {
        const colon = await afterSpace(text, end + 1, pause);
        if (text.charCodeAt(colon) === COLON) {
          const key = parsedOrUndefined(text.slice(i, end + 1));
          if (key === "method" || key === "params") isRequest = true;
          if (key === "id") id = idAt(text, await afterSpace(text, colon + 1, pause), maxString) ?? id;
        }
      }
      i = end;
    }
  }
  return { ...(id === undefined ? {} : { id }), isRequest };
}

/** The index of the quote that ends the string opened at `start`, found with indexOf, or -1 when none does before `limit`. */
function quoteAfter(text: string, start: number, limit: number = text.length): number {
  for (let from = start + 1;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1 || quote >= limit) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** A number, or a string of at most `maxString` characters, at `start`. */
function idAt(text: string, start: number, maxString: number): number | string | undefined {
  let end = start;
  if (text.charCodeAt(start) === QUOTE) {
    end = quoteAfter(text, start, start + maxString + 2) + 1;
    if (end === 0) return undefined;
  } else {
    while (end < text.length && !isDelimiter(text.charCodeAt(end)) && end - start <= 32) end++;
  }
  const value = parsedOrUndefined(text.slice(start, end));
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value)) ? value : undefined;
}

/**
 * The index of the quote that ends the string opened at `open`, or -1, found a piece at a time with pauses
 * between. Each character is read once, with whether it is escaped carried from piece to piece: searching each piece
 * for a quote ran on to the next one past it, and counting the backslashes before a quote ran back to the string's
 * start, each in one stretch (60 ms for a string of 30 million backslashes).
 */
async function stringEnd(text: string, open: number, pause: () => Promise<void>): Promise<number> {
  let escaped = false;
  for (let from = open + 1; from < text.length; from += PIECE_CHARS) {
    const to = Math.min(text.length, from + PIECE_CHARS);
    for (let i = from; i < to; i++) {
      const code = text.charCodeAt(i);
      if (escaped) escaped = false;
      else if (code === BACKSLASH) escaped = true;
      else if (code === QUOTE) return i;
    }
    await pause();
  }
  return -1;
}

/** Where the white space from `from` ends, pausing between pieces of a long run of it. */
async function afterSpace(
  text: string,
  from: number,
  pause: () => Promise<void>,
  piece: number = PIECE_CHARS,
): Promise<number> {
  let at = from;
  while (at < text.length && isSpace(text.charCodeAt(at))) {
    if ((++at - from) % piece === 0) await pause();
  }
  return at;
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
