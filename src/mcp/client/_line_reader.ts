// Splits a byte stream into lines in linear time: the chunks of an
// unfinished line are kept as they came and joined once, when its newline
// arrives, and each byte is scanned for a newline only once. Joining text
// and re-scanning all of it on every chunk made a 40 MB line take seconds.

const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** Splits UTF-8 bytes into lines of at most `maxBytes` bytes each. */
export class LineReader {
  readonly #maxBytes: number;
  readonly #onLine: (line: string) => void;
  readonly #onOverflow: () => void;
  readonly #decoder = new TextDecoder();
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
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
        if (piece.length > 0) {
          this.#pending.push(piece);
          this.#pendingBytes += piece.length;
        }
        return;
      }
      this.#finish(piece);
      start = newline + 1;
    }
  }

  #finish(last: Uint8Array): void {
    let bytes = last;
    if (this.#pending.length > 0) {
      bytes = new Uint8Array(this.#pendingBytes + last.length);
      let offset = 0;
      for (const part of this.#pending) {
        bytes.set(part, offset);
        offset += part.length;
      }
      bytes.set(last, offset);
      this.#pending = [];
      this.#pendingBytes = 0;
    }
    const end = bytes.length > 0 && bytes[bytes.length - 1] === RETURN ? bytes.length - 1 : bytes.length;
    if (end > this.#maxBytes) {
      this.#overflow();
      return;
    }
    const line = this.#decoder.decode(bytes.subarray(0, end));
    if (line.trim() !== "") this.#onLine(line);
  }

  #overflow(): void {
    this.#overflowed = true;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#onOverflow();
  }
}
