// Byte arrays read or written in pieces, put together once at the end.

/**
 * The pieces' bytes in one array.
 *
 * @param pieces The byte arrays, in order.
 * @param length Their lengths' sum.
 * @returns A new array holding them all.
 */
export function concatBytes(pieces: readonly Uint8Array[], length: number): Uint8Array<ArrayBuffer> {
  const all = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    all.set(piece, at);
    at += piece.byteLength;
  }
  return all;
}
