// Splits a byte stream into lines in linear time: each byte is scanned for a
// newline once, and an unfinished line is decoded chunk by chunk as it
// arrives, its text kept as the pieces it came in. Joining text and
// re-scanning all of it on every chunk made a 40 MB line take seconds;
// joining its bytes and decoding them when the newline came held the host
// for 60 ms on a 50 MB line.

const NEWLINE = 0x0a;
const RETURN = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

/** Splits UTF-8 bytes into lines of at most `maxBytes` bytes each. */
export class LineReader {
  readonly #maxBytes: number;
  readonly #onLine: (line: string) => void;
  readonly #onOverflow: () => void;
  readonly #decoder = new TextDecoder();
  /** The unfinished line's text so far, without a "\r" its last chunk ended on. */
  #pending = "";
  #pendingBytes = 0;
  /** The last chunk of the unfinished line ended on a "\r", not yet decoded: a line end if a newline follows. */
  #heldReturn = false;
  /** Whether the unfinished line holds nothing but spaces, tabs and returns so far. */
  #blank = true;
  #overflowed = false;

  /**
   * @param maxBytes The longest line accepted, without its line ending.
   * @param onLine Receives each non-blank line, without its line ending.
   * @param onOverflow Runs once, at the first line longer than `maxBytes`;
   * nothing is read after it, since the stream has lost its framing.
   */
  constructor(maxBytes: number, onLine: (line: string) => void, onOverflow: () => void) {
    this.#maxBytes = maxBytes;
    this.#onLine = onLine;
    this.#onOverflow = onOverflow;
  }

  /** Takes the next chunk of the stream. */
  push(chunk: Uint8Array): void {
    let start = 0;
    while (!this.#overflowed) {
      const newline = chunk.indexOf(NEWLINE, start);
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline);
      if (this.#pendingBytes + piece.length > this.#maxBytes + 1) {
        // One byte over the limit may be the "\r" of a "\r\n" ending.
        this.#overflow();
        return;
      }
      if (newline === -1) {
        this.#add(piece);
        return;
      }
      this.#finish(piece);
      start = newline + 1;
    }
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
    this.#pending = "";
    this.#pendingBytes = 0;
    this.#heldReturn = false;
    this.#blank = true;
    if (bytes > this.#maxBytes) {
      this.#overflow();
      return;
    }
    if (!blank) this.#onLine(line);
  }

  #overflow(): void {
    this.#overflowed = true;
    this.#pending = "";
    this.#pendingBytes = 0;
    this.#onOverflow();
  }
}

/** Whether bytes are spaces, tabs and returns alone (a line of them is skipped as blank). */
function isBlank(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte !== SPACE && byte !== TAB && byte !== RETURN) return false;
  return true;
}
