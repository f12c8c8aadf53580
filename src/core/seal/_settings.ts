// What a RecordSeal holds once its constructor has checked its options, the
// bounds it checks a key id and a subject by, which a stamp read back is held
// to as well, and its clock, read and checked.

import type { NonceStore } from "./nonce_store.ts";

/** The longest key id, in UTF-16 code units. */
export const MAX_KEY_ID_LENGTH = 256;
/** The longest subject, in UTF-16 code units. */
export const MAX_SUBJECT_LENGTH = 1024;
/** The length of a stamp's nonce, in bytes. */
export const NONCE_BYTES = 16;

/** A key, checked: its id and its material (a copy of the caller's bytes, or their WebCrypto key). */
export interface KeyEntry {
  readonly id: string;
  readonly material: Uint8Array<ArrayBuffer> | CryptoKey;
  /** The WebCrypto key imported from the bytes, once a seal or verify has needed it. */
  imported?: Promise<CryptoKey>;
}

/** A seal's checked options. */
export interface SealSettings {
  /** The key that signs; it verifies too. */
  readonly signing: KeyEntry;
  /** Every key that verifies, by id, the signing key included. */
  readonly keys: ReadonlyMap<string, KeyEntry>;
  readonly ttlMs: number;
  readonly nonces: NonceStore;
  /** The clock, not yet checked: each reading is. */
  readonly now: () => number;
}

/**
 * The time on a seal's clock, checked: a clock that gives no time would let every record pass its expiry check.
 *
 * @param settings The seal's settings.
 * @returns The time, in milliseconds.
 * @throws {TypeError} When the clock returns no finite time.
 */
export function clock(settings: SealSettings): number {
  const now = settings.now();
  if (typeof now !== "number" || !Number.isFinite(now) || Math.abs(now) > Number.MAX_SAFE_INTEGER) {
    throw new TypeError(
      `Cannot seal records as options.now() must return a time in milliseconds: current value is ${String(now)}`,
    );
  }
  return now;
}
