// What a RecordSeal holds once its constructor has checked its options, and
// the bounds it checks a key id and a subject by, which a stamp read back is
// held to as well.

import type { NonceStore } from "./nonce_store.ts";

/** The longest key id, in UTF-16 code units. */
export const MAX_KEY_ID_LENGTH = 256;
/** The longest subject, in UTF-16 code units. */
export const MAX_SUBJECT_LENGTH = 1024;

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
