// Splits a byte stream into lines in linear time: each byte is scanned for a
// newline once, and an unfinished line is decoded chunk by chunk as it
// arrives, its text kept as the pieces it came in. Joining text and
// re-scanning all of it on every chunk made a 40 MB line take seconds;
// joining its bytes and decoding them when the newline came held the host
// for 60 ms on a 50 MB line. A line past the limit is not held: its start
// and its end are kept, and what it is (and so whether the reading goes on
// past it) is its reader's to say.

/** The most characters of a long message's start kept to tell what it is. */
export const HEAD_CHARS = 4_096;
/** The most bytes of a long message's end kept for the same. */
export const TAIL_BYTES = 256;
/** How far a long message is skipped to its end before its reader gives up on it: 256 MiB. */
export const MAX_SKIPPED_BYTES: number = 256 * 1024 * 1024;

const NEWLINE = 0x0a;
const RETURN = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const encoder = new TextEncoder();

/** What to do with a line longer than the limit; its text is never held whole. */
export interface LongLines {
  /** The line just passed the limit, with its first characters: whether to read on to its end. */
  readonly starts: (head: string) => boolean;
  /** The end of a line read on, with its first characters and its last ones (its line ending may be among them). */
  readonly ends: (head: string, tail: string) => void;
  /** Reading stopped, for good: a long line was not to be read on, or ran past the bytes a skip may take. */
  readonly stopped: () => void;
}

/** Splits UTF-8 bytes into lines of at most `maxBytes` bytes each; a longer one is skipped, or stops the reading. */
export class LineReader {
  readonly #maxBytes: number;
  readonly #onLine: (line: string) => void;
  readonly #longLines: LongLines;
  readonly #maxSkippedBytes: number;
  readonly #decoder = new TextDecoder();
  /** The unfinished line's text so far, without a "\r" its last chunk ended on. */
  #pending = "";
  #pendingBytes = 0;
  /** The last chunk of the unfinished line ended on a "\r", not yet decoded: a line end if a newline follows. */
  #heldReturn = false;
  /** Whether the unfinished line holds nothing but spaces, tabs and returns so far. */
  #blank = true;
  /** The long line being skipped: its head, its last bytes so far, and its size so far. */
  #skipping: { readonly head: string; tail: Uint8Array; bytes: number } | undefined;
  #stopped = false;

  /**
   * @param maxBytes The longest line accepted, without its line ending.
   * @param onLine Receives each non-blank line, without its line ending.
   * @param longLines Decides on each line longer than `maxBytes`, and hears where it ends or that reading stopped.
   * @param maxSkippedBytes The longest a line may grow while it is skipped; past it, reading stops.
   */
  constructor(
    maxBytes: number,
    onLine: (line: string) => void,
    longLines: LongLines,
    maxSkippedBytes: number = MAX_SKIPPED_BYTES,
  ) {
    this.#maxBytes = maxBytes;
    this.#onLine = onLine;
    this.#longLines = longLines;
    this.#maxSkippedBytes = maxSkippedBytes;
  }

  /** Takes the next chunk of the stream. */
  push(chunk: Uint8Array): void {
    let start = 0;
    while (!this.#stopped) {
      const newline = chunk.indexOf(NEWLINE, start);
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline);
      if (this.#skipping !== undefined) this.#skip(piece);
      // One byte over the limit may be the "\r" of a "\r\n" ending.
      else if (this.#pendingBytes + piece.length > this.#maxBytes + 1) this.#startSkipping(piece);
      else if (newline === -1) return this.#add(piece);
      else {
        this.#finish(piece);
        start = newline + 1;
        continue;
      }
      if (this.#stopped || newline === -1) return;
      this.#endSkipping();
      start = newline + 1;
    }
  }

  /** A line just passed the limit with `piece`: its head is kept, and the rest of it is skipped or reading stops. */
  #startSkipping(piece: Uint8Array): void {
    const more = this.#pending.length < HEAD_CHARS
      ? this.#decoder.decode(piece.subarray(0, HEAD_CHARS), { stream: true })
      : "";
    const head = (this.#pending + more).slice(0, HEAD_CHARS);
    // The line may end in this piece: its tail starts in what came before.
    const tail = encoder.encode(this.#pending.slice(-TAIL_BYTES));
    const bytes = this.#pendingBytes;
    this.#clearLine();
    // What the decoder still holds of a character cut short belongs to the skipped line.
    this.#decoder.decode();
    if (!this.#longLines.starts(head)) return this.#stop();
    this.#skipping = { head, tail, bytes };
    this.#skip(piece);
  }

  #skip(piece: Uint8Array): void {
    const skipping = this.#skipping!;
    skipping.bytes += piece.length;
    if (skipping.bytes > this.#maxSkippedBytes) return this.#stop();
    skipping.tail = lastBytes(skipping.tail, piece);
  }

  #endSkipping(): void {
    const { head, tail } = this.#skipping!;
    this.#skipping = undefined;
    this.#longLines.ends(head, new TextDecoder().decode(tail));
  }

  #stop(): void {
    this.#stopped = true;
    this.#skipping = undefined;
    this.#clearLine();
    this.#longLines.stopped();
  }

  #clearLine(): void {
    this.#pending = "";
    this.#pendingBytes = 0;
    this.#heldReturn = false;
    this.#blank = true;
  }

  /** Adds a piece of the unfinished line; a "\r" it ends on waits to see whether a newline follows. */
  #add(piece: Uint8Array): void {
    if (piece.length === 0) return;
    let text = this.#heldReturn ? "\r" : "";
    this.#heldReturn = piece[piece.length - 1] === RETURN;
    const decoded = this.#heldReturn ? piece.subarray(0, piece.length - 1) : piece;
    text += this.#decoder.decode(decoded, { stream: true });
    this.#pending += text;
    this.#pendingBytes += piece.length;
    if (this.#blank) this.#blank = isBlank(piece);
  }

  #finish(last: Uint8Array): void {
    // A "\r" before the newline is part of the line ending, held back or in this last piece.
    const endsOnReturn = last.length > 0 ? last[last.length - 1] === RETURN : this.#heldReturn;
    const tail = last.length > 0 && endsOnReturn ? last.subarray(0, last.length - 1) : last;
    const bytes = this.#pendingBytes + last.length - (endsOnReturn ? 1 : 0);
    const held = this.#heldReturn && last.length > 0 ? "\r" : "";
    const line = this.#pending + held + this.#decoder.decode(tail);
    const blank = this.#blank && isBlank(last);
    this.#clearLine();
    if (bytes <= this.#maxBytes) {
      if (!blank) this.#onLine(line);
      return;
    }
    // Over by its last byte: ended already, so it is told of whole.
    const head = line.slice(0, HEAD_CHARS);
    if (!this.#longLines.starts(head)) return this.#stop();
    this.#longLines.ends(head, line.slice(-TAIL_BYTES));
  }
}

/** Whether bytes are spaces, tabs and returns alone (a line of them is skipped as blank). */
function isBlank(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte !== SPACE && byte !== TAB && byte !== RETURN) return false;
  return true;
}

/**
 * The last bytes of a long message so far, once `piece` has come after `kept`.
 *
 * @param kept The last bytes kept before.
 * @param piece What came next.
 * @returns At most 256 bytes: the end of `kept` then `piece`.
 */
export function lastBytes(kept: Uint8Array, piece: Uint8Array): Uint8Array {
  if (piece.length >= TAIL_BYTES) return piece.slice(piece.length - TAIL_BYTES);
  const joined = new Uint8Array(Math.min(TAIL_BYTES, kept.length + piece.length));
  const fromKept = joined.length - piece.length;
  joined.set(kept.subarray(kept.length - fromKept));
  joined.set(piece, fromKept);
  return joined;
}
