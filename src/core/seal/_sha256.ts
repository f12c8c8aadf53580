// SHA-256 (FIPS 180-4) fed a piece at a time. WebCrypto's digest and HMAC
// take their whole input at once and copy it first in one stretch: for a
// forged record of 16 Mi characters, three UTF-8 bytes each, that copy held
// the host 0.15-0.2 s. A record's text is hashed here between pauses, and
// WebCrypto's HMAC covers the digest.

// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
const ROUND_CONSTANTS = new Uint32Array([
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
]);
// The first 32 bits of the fractional parts of the square roots of the first 8 primes.
const INITIAL_STATE = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const BLOCK_BYTES = 64;

/** A SHA-256 hash fed its input a piece at a time. */
export class Sha256 {
  readonly #state = new Uint32Array(INITIAL_STATE);
  readonly #words = new Uint32Array(64);
  /** The bytes of a block not yet whole. */
  readonly #pending = new Uint8Array(BLOCK_BYTES);
  #pendingBytes = 0;
  #totalBytes = 0;

  /** Feeds the next bytes of the input. */
  update(bytes: Uint8Array): void {
    this.#totalBytes += bytes.length;
    let at = 0;
    if (this.#pendingBytes > 0) {
      at = Math.min(BLOCK_BYTES - this.#pendingBytes, bytes.length);
      this.#pending.set(bytes.subarray(0, at), this.#pendingBytes);
      this.#pendingBytes += at;
      if (this.#pendingBytes < BLOCK_BYTES) return;
      this.#compress(this.#pending, 0);
      this.#pendingBytes = 0;
    }
    for (; at + BLOCK_BYTES <= bytes.length; at += BLOCK_BYTES) this.#compress(bytes, at);
    this.#pending.set(bytes.subarray(at));
    this.#pendingBytes = bytes.length - at;
  }

  /** The digest of all the bytes fed; the hash takes no more after it. */
  digest(): Uint8Array<ArrayBuffer> {
    // The padding: a one bit, zeros, and the input's length in bits as 64 bits, to a whole block.
    const tail = new Uint8Array(this.#pendingBytes < BLOCK_BYTES - 8 ? BLOCK_BYTES : 2 * BLOCK_BYTES);
    tail.set(this.#pending.subarray(0, this.#pendingBytes));
    tail[this.#pendingBytes] = 0x80;
    const view = new DataView(tail.buffer);
    const bits = this.#totalBytes * 8;
    view.setUint32(tail.length - 8, Math.floor(bits / 2 ** 32));
    view.setUint32(tail.length - 4, bits >>> 0);
    for (let at = 0; at < tail.length; at += BLOCK_BYTES) this.#compress(tail, at);
    const digest = new Uint8Array(32);
    const out = new DataView(digest.buffer);
    for (let i = 0; i < 8; i++) out.setUint32(4 * i, this.#state[i]);
    return digest;
  }

  #compress(bytes: Uint8Array, at: number): void {
    const words = this.#words;
    for (let i = 0; i < 16; i++, at += 4) {
      words[i] = (bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
    }
    for (let i = 16; i < 64; i++) {
      const early = words[i - 15];
      const late = words[i - 2];
      const sigma0 = ((early >>> 7) | (early << 25)) ^ ((early >>> 18) | (early << 14)) ^ (early >>> 3);
      const sigma1 = ((late >>> 17) | (late << 15)) ^ ((late >>> 19) | (late << 13)) ^ (late >>> 10);
      words[i] = words[i - 16] + sigma0 + words[i - 7] + sigma1;
    }
    const state = this.#state;
    let a = state[0], b = state[1], c = state[2], d = state[3], e = state[4], f = state[5], g = state[6], h = state[7];
    for (let i = 0; i < 64; i++) {
      const sum1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const choice = (e & f) ^ (~e & g);
      const first = (h + sum1 + choice + ROUND_CONSTANTS[i] + words[i]) | 0;
      const sum0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const majority = (a & b) ^ (a & c) ^ (b & c);
      h = g;
      g = f;
      f = e;
      e = (d + first) | 0;
      d = c;
      c = b;
      b = a;
      a = (first + sum0 + majority) | 0;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
  }
}
