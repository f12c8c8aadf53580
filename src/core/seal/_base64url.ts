// Base64url without padding (RFC 4648 §5), strict on the way in: a text has
// exactly one spelling per byte string, so a stamp's nonce or MAC cannot be
// rewritten into a second form that decodes to the same bytes.

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

const VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

/** Encodes bytes as unpadded base64url. */
export function encodeBase64url(bytes: Uint8Array): string {
  let text = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    text += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63];
  }
  const left = bytes.length - i;
  if (left === 1) {
    const n = bytes[i] << 16;
    text += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63];
  } else if (left === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    text += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63];
  }
  return text;
}

/**
 * Decodes unpadded base64url of exactly `byteLength` bytes, or returns
 * undefined: for a wrong length, a character outside the alphabet, or
 * unused low bits that are not zero (a second spelling of the same bytes).
 */
export function decodeBase64url(text: string, byteLength: number): Uint8Array | undefined {
  if (text.length !== Math.ceil((byteLength * 4) / 3)) return undefined;
  const bytes = new Uint8Array(byteLength);
  let buffer = 0;
  let bits = 0;
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? VALUES[code] : -1;
    if (value < 0) return undefined;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (buffer >> bits) & 0xff;
    }
  }
  if ((buffer & ((1 << bits) - 1)) !== 0) return undefined;
  return bytes;
}
