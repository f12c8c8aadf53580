/**
 * Sealing: a MAC and a single-use, expiring stamp on a JSON record (such as
 * a parked call), so a record read back from storage is known to be one
 * this host wrote, unchanged, and used once.
 *
 * ```ts
 * import { RecordSeal } from "./seal.ts";
 * import assert from "node:assert/strict";
 *
 * const seal = new RecordSeal({ key: { id: "2025-01", secret: "a secret of at least 32 bytes, kept server-side" } });
 * const stored = JSON.stringify(await seal.seal({ callId: "call_1", tool: "write_file" }, "user_42"));
 *
 * const checked = await seal.verify(JSON.parse(stored), { subject: "user_42" });
 * assert.equal(checked.ok, true);
 * assert.equal((await seal.verify(JSON.parse(stored), { subject: "user_42" })).ok, false); // used once
 * ```
 *
 * @module
 */

import { isRecord } from "../common/_is_record.ts";
import { showValue } from "../common/_show_value.ts";
import { MemoryNonceStore, type NonceStore } from "./nonce_store.ts";
import type { Sealed, SealStamp, VerifyResult } from "./stamp.ts";
import {
  clock,
  type KeyEntry,
  MAX_KEY_ID_LENGTH,
  MAX_SUBJECT_LENGTH,
  NONCE_BYTES,
  type SealSettings,
} from "./_settings.ts";
import { encodeBase64url } from "./_base64url.ts";
import { CANONICAL_LIMITS, canonicalRead } from "./_canonical_json.ts";
import { SEALING } from "./_apart.ts";

export { MemoryNonceStore, type MemoryNonceStoreOptions, type NonceStore } from "./nonce_store.ts";
export type { Sealed, SealStamp, VerifyFailureReason, VerifyResult } from "./stamp.ts";

/**
 * A key that signs or verifies seals. `secret` is raw key material (a
 * string counts as its UTF-8 bytes) of at least 32 bytes, or a WebCrypto
 * HMAC SHA-256 key of at least 256 bits, with the `verify` usage (and
 * `sign` for the key that signs).
 *
 * @example Keys as bytes, as text and as a WebCrypto key
 * ```ts
 * import { RecordSeal, type SealKey } from "./seal.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes: SealKey = { id: "2025-01", secret: crypto.getRandomValues(new Uint8Array(32)) };
 * const text: SealKey = { id: "2024-12", secret: "a passphrase of at least thirty-two bytes" };
 * const webCrypto: SealKey = {
 *   id: "2024-11",
 *   secret: await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]),
 * };
 * const seal = new RecordSeal({ key: bytes, keys: [text, webCrypto] });
 * assert.equal((await seal.seal({ a: 1 })).seal.kid, "2025-01");
 * ```
 */
export interface SealKey {
  /** Names the key in each stamp, so a verifier finds it; not secret. At most 256 characters. */
  readonly id: string;
  /** The key material. Bytes are copied when the seal is made. */
  readonly secret: Uint8Array | string | CryptoKey;
}

/**
 * Options of a {@linkcode RecordSeal}.
 *
 * @example Records that stay valid for an hour
 * ```ts
 * import { RecordSeal, type SealOptions } from "./seal.ts";
 * import assert from "node:assert/strict";
 *
 * const options: SealOptions = {
 *   key: { id: "k1", secret: crypto.getRandomValues(new Uint8Array(32)) },
 *   ttlMs: 60 * 60 * 1000,
 * };
 * const { seal } = await new RecordSeal(options).seal({ a: 1 });
 * assert.equal(seal.exp - seal.iat, 60 * 60 * 1000);
 * ```
 */
export interface SealOptions {
  /** The key that signs new seals; it verifies too. */
  readonly key: SealKey;
  /** More keys that verify, such as the one `key` replaced: rotation without refusing records already out. */
  readonly keys?: readonly SealKey[];
  /** How long a seal stays valid, in milliseconds. Default 24 hours; at most one year. */
  readonly ttlMs?: number;
  /** Where consumed nonces are kept. Default: a {@linkcode MemoryNonceStore} of this process. */
  readonly nonces?: NonceStore;
  /** The clock, in milliseconds since the Unix epoch. Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * What a caller of {@linkcode RecordSeal.verify} expects of the record.
 *
 * @example A record sealed for one user verifies only for that user
 * ```ts
 * import { RecordSeal, type VerifyExpectation } from "./seal.ts";
 * import assert from "node:assert/strict";
 *
 * const sealer = new RecordSeal({ key: { id: "k1", secret: "0123456789abcdef0123456789abcdef" } });
 * const sealed = await sealer.seal({ a: 1 }, "user_42");
 * const other: VerifyExpectation = { subject: "user_7" };
 * const refused = await sealer.verify(sealed, other);
 * assert.equal(refused.ok === false && refused.reason, "subject_mismatch");
 * assert.equal((await sealer.verify(sealed, { subject: "user_42" })).ok, true);
 * ```
 */
export interface VerifyExpectation {
  /** Whom the record must have been sealed for. */
  readonly subject?: string;
}

const HOUR_MS = 60 * 60 * 1000;
const DEFAULT_TTL_MS = 24 * HOUR_MS;
const MAX_TTL_MS = 365 * 24 * HOUR_MS;
const MIN_SECRET_BYTES = 32;

/**
 * The nonce store a seal's options name, checked as {@linkcode RecordSeal}
 * checks it, or else a store of this process that reads the seal's clock:
 * one that read another clock could forget a nonce while the seal still
 * finds its record unexpired, and let the record be used again.
 *
 * @param nonces The `nonces` option, as given.
 * @param now The seal's clock, checked.
 * @returns The store.
 * @throws {TypeError} When `nonces` is given without a `consume` method.
 *
 * @example A store of this process on the seal's clock
 * ```ts
 * import { nonceStoreOf } from "./seal.ts";
 * import assert from "node:assert/strict";
 *
 * const store = nonceStoreOf(undefined, () => 0);
 * assert.equal(await store.consume("n1", 60_000), true);
 * assert.equal(await store.consume("n1", 60_000), false);
 * assert.throws(() => nonceStoreOf(null, Date.now), TypeError);
 * ```
 */
export function nonceStoreOf(nonces: unknown, now: () => number): NonceStore {
  if (nonces === undefined) return new MemoryNonceStore({ now });
  if (typeof nonces !== "object" || nonces === null || typeof (nonces as NonceStore).consume !== "function") {
    throw new TypeError(
      `Cannot seal records as options.nonces must have a consume method: current value is ${showValue(nonces)}`,
    );
  }
  return nonces as NonceStore;
}

/**
 * Seals JSON records and verifies them when they come back: a stamp with
 * an HMAC-SHA-256 over the whole record, a key id (so keys can rotate), an
 * expiry, an optional subject, and a 128-bit nonce that makes each record
 * verify once.
 *
 * The MAC covers a canonical JSON encoding of every field (keys sorted,
 * `undefined` left out), so a record verifies after any JSON round trip
 * and a change to any field, or to the stamp, fails. A record must be
 * plain JSON nested at most 64 levels, at most 16 Mi (16,777,216) characters as JSON text, with
 * no object of more than 50,000 members or whose keys hold more than 1 Mi characters together.
 *
 * A sealed record is readable by anyone who holds it: the seal proves who
 * wrote it, it hides nothing. Nothing reads a record's fields for you
 * before {@linkcode RecordSeal.verify} succeeds, and `verify` returns its
 * own copy, read once, so what was checked is what you get.
 *
 * Times are milliseconds since the Unix epoch. A record is valid from
 * `iat` (60 seconds earlier, allowing for a clock that runs behind the
 * sealer's) until `exp`, which is `iat` plus `ttlMs` (default 24 hours).
 *
 * @example Seal a parked call, store it, verify it once
 * ```ts
 * import { RecordSeal } from "./seal.ts";
 * import assert from "node:assert/strict";
 *
 * const seal = new RecordSeal({ key: { id: "k1", secret: crypto.getRandomValues(new Uint8Array(32)) } });
 * const sealed = await seal.seal({ v: 1, callId: "c1", tool: "write_file", input: { path: "a" } });
 * const readBack = JSON.parse(JSON.stringify(sealed));
 *
 * const first = await seal.verify(readBack);
 * assert.equal(first.ok, true);
 * if (first.ok) assert.deepEqual(first.record, { v: 1, callId: "c1", tool: "write_file", input: { path: "a" } });
 * const again = await seal.verify(readBack);
 * assert.equal(again.ok === false && again.reason, "replayed");
 * ```
 */
export class RecordSeal {
  readonly #settings: SealSettings;

  /**
   * Checks the options and makes a seal.
   *
   * @param options The signing key, more verifying keys, the lifetime, the nonce store, the clock.
   * @throws {TypeError} For an option of the wrong type: a key that is not
   *   `{ id, secret }`, a secret that is not bytes, a string or an HMAC
   *   SHA-256 `CryptoKey` with the usages it needs, a `nonces` without
   *   `consume`, a `now` that is not a function.
   * @throws {RangeError} For an empty or over-long key id, a secret shorter
   *   than 32 bytes, a `ttlMs` that is not a positive integer of at most one
   *   year, or two keys with the same id.
   *
   * @example A short secret is refused at once
   * ```ts
   * import { RecordSeal } from "./seal.ts";
   * import assert from "node:assert/strict";
   *
   * assert.throws(() => new RecordSeal({ key: { id: "k1", secret: "short" } }), {
   *   name: "RangeError",
   *   message: "Cannot seal records as options.key.secret must hold at least 32 bytes: current value is 5 bytes",
   * });
   * ```
   */
  constructor(options: SealOptions) {
    if (!isRecord(options)) {
      throw new TypeError(`Cannot seal records as options must be an object: current value is ${showValue(options)}`);
    }
    const { key, keys = [], ttlMs = DEFAULT_TTL_MS, nonces, now = Date.now } = options;
    const signing = keyEntry(key, "options.key", true);
    if (!Array.isArray(keys)) {
      throw new TypeError(`Cannot seal records as options.keys must be an array: current value is ${showValue(keys)}`);
    }
    const byId = new Map([[signing.id, signing]]);
    keys.forEach((other, i) => {
      const entry = keyEntry(other, `options.keys[${i}]`, false);
      if (byId.has(entry.id)) {
        throw new RangeError(`Cannot seal records as two keys share an id: current value is ${showValue(entry.id)}`);
      }
      byId.set(entry.id, entry);
    });
    if (typeof ttlMs !== "number" || !Number.isInteger(ttlMs) || ttlMs < 1 || ttlMs > MAX_TTL_MS) {
      const problem = typeof ttlMs === "number" ? RangeError : TypeError;
      throw new problem(
        `Cannot seal records as options.ttlMs must be a positive integer of at most ${MAX_TTL_MS} (one year): current value is ${
          typeof ttlMs === "number" ? String(ttlMs) : showValue(ttlMs)
        }`,
      );
    }
    if (typeof now !== "function") {
      throw new TypeError(`Cannot seal records as options.now must be a function: current value is ${showValue(now)}`);
    }
    this.#settings = { signing, keys: byId, ttlMs, nonces: nonceStoreOf(nonces, now), now };
    SETTINGS.set(this, this.#settings);
  }

  /**
   * Stamps a copy of a record: the record, read once and copied as plain
   * JSON, plus a `seal` field.
   *
   * @param record A plain JSON object with no `seal` field. Properties
   *   whose value is `undefined` are left out of the copy, as JSON would.
   * @param subject Whom the record is for (a user, a session); `verify`
   *   then requires the same subject.
   * @returns The copy with its stamp; later changes to `record` do not reach it.
   * @throws {TypeError} For a record that is not a plain JSON object (see
   *   the class's limits), one that already has a `seal` field, a subject
   *   that is not a string of 1 to 1024 characters, or a clock that returns
   *   no finite time.
   * @throws {RangeError} For a record nested deeper than 64 levels, over
   *   16 Mi characters as JSON text, or with an object of more than 50,000 members or whose keys hold more
   *   than 1 Mi characters together.
   *
   * @example Seal for a subject
   * ```ts
   * import { RecordSeal } from "./seal.ts";
   * import assert from "node:assert/strict";
   *
   * const seal = new RecordSeal({ key: { id: "k1", secret: "0123456789abcdef0123456789abcdef" }, now: () => 1_000 });
   * const sealed = await seal.seal({ callId: "c1" }, "user_42");
   * assert.equal(sealed.callId, "c1");
   * assert.deepEqual(
   *   { kid: sealed.seal.kid, iat: sealed.seal.iat, exp: sealed.seal.exp, sub: sealed.seal.sub },
   *   { kid: "k1", iat: 1_000, exp: 1_000 + 24 * 60 * 60 * 1000, sub: "user_42" },
   * );
   * ```
   */
  async seal<T extends object>(record: T, subject?: string): Promise<Sealed<T>> {
    // Stamped and read now, in one stretch, whether the sealing part has loaded or not: what is sealed (or refused) is
    // the record as it was at the call, whatever the caller changes while the part loads. Only the MAC waits for it.
    const stamp = stampFor(this.#settings, record, subject);
    const read = canonicalRead(record, CANONICAL_LIMITS, { seal: stamp });
    return await SEALING.use((sealing) => sealing.sealRecord<T>(this.#settings, stamp, read));
  }

  /**
   * Checks a record read back from storage, in this order: that it is
   * plain JSON with a well-formed stamp, that the stamp's key is known,
   * the MAC (compared in constant time), the expiry, the subject, and last
   * that its nonce was not used before, so a record refused for any other
   * reason does not use up its nonce.
   *
   * It reads the record once, into its own copy, and checks and returns
   * that copy: what it returns is what the MAC covered. Anyone may have
   * written what storage gives back, so the record is read, and its
   * canonical text written and hashed, in steps that yield to the event
   * loop, paced by the work they take: a forged record of megabytes does
   * not hold the host while it is read. Nothing about the
   * record makes it throw: a throwing getter, a revoked proxy, a value
   * nested 100,000 levels deep or too large to seal is `malformed`.
   *
   * @param record What storage gave back; anything.
   * @param expected The subject the record must carry. A record sealed for
   *   a subject verifies only when the same subject is given; a record
   *   sealed for none, only when none is given.
   * @returns The record without its stamp, and the stamp; or why it was refused.
   * @throws {TypeError} When `expected.subject` is given and is not a
   *   string of 1 to 1024 characters, or the clock returns no finite time.
   * Whatever the clock or the nonce store throws is thrown as it is: a
   * store that cannot answer is not a verdict on the record.
   *
   * @example A changed record is refused
   * ```ts
   * import { RecordSeal } from "./seal.ts";
   * import assert from "node:assert/strict";
   *
   * const seal = new RecordSeal({ key: { id: "k1", secret: "0123456789abcdef0123456789abcdef" } });
   * const sealed = await seal.seal({ tool: "read_file", input: { path: "notes.txt" } });
   * const changed = { ...sealed, input: { path: "/etc/passwd" } };
   * const result = await seal.verify(changed);
   * assert.equal(result.ok === false && result.reason, "bad_mac");
   * assert.equal((await seal.verify(sealed)).ok, true); // the failure did not use up the nonce
   * ```
   */
  async verify(record: unknown, expected: VerifyExpectation = {}): Promise<VerifyResult> {
    const subject = isRecord(expected) ? expected.subject : undefined;
    checkSubject(subject, "expected.subject");
    return await SEALING.use((sealing) => sealing.verifyRecord(this.#settings, record, subject));
  }
}

/** Each seal's settings, for {@linkcode sealHeld}, which needs no public door to them. */
const SETTINGS = new WeakMap<RecordSeal, SealSettings>();

/**
 * Seals a record that only its caller holds (one a tool set built of its own copies), as
 * {@linkcode RecordSeal.seal} does, but reads it in steps that yield to the event loop, once the sealing part has
 * loaded, rather than in one stretch at the call: a turn's record holds every argument the model sent in it, and 64
 * parked calls of 120,000 numbers each held the host 1.1 s read at once.
 *
 * @param seal The seal.
 * @param record A plain JSON object with no `seal` field, that nothing changes until this settles.
 * @param subject Whom the record is for.
 * @returns The copy with its stamp.
 * @throws {TypeError} As {@linkcode RecordSeal.seal} throws, the record's own problems in the promise.
 * @throws {RangeError} As {@linkcode RecordSeal.seal} throws, in the promise.
 */
export async function sealHeld<T extends object>(seal: RecordSeal, record: T, subject?: string): Promise<Sealed<T>> {
  const settings = SETTINGS.get(seal)!;
  const stamp = stampFor(settings, record, subject);
  return await SEALING.use((sealing) => sealing.sealHeldRecord<T>(settings, stamp, record));
}

/** The stamp a record to seal gets, less its MAC, once the record and the subject are checked. */
function stampFor(settings: SealSettings, record: unknown, subject: unknown): Omit<SealStamp, "mac"> {
  if (!isRecord(record)) {
    throw new TypeError(
      `Cannot seal records as a record must be a plain object: current value is ${showValue(record)}`,
    );
  }
  if (Object.hasOwn(record, "seal")) {
    throw new TypeError(
      "Cannot seal records as the record already has a seal field: current value is a sealed record",
    );
  }
  checkSubject(subject, "subject");
  const iat = Math.floor(clock(settings));
  return {
    v: 1,
    kid: settings.signing.id,
    nonce: encodeBase64url(crypto.getRandomValues(new Uint8Array(NONCE_BYTES))),
    iat,
    exp: iat + settings.ttlMs,
    ...(subject === undefined ? {} : { sub: subject }),
  };
}

function checkSubject(subject: unknown, name: string): asserts subject is string | undefined {
  if (subject === undefined) return;
  if (typeof subject !== "string" || subject.length === 0 || subject.length > MAX_SUBJECT_LENGTH) {
    throw new TypeError(
      `Cannot seal records as ${name} must be a string of 1 to ${MAX_SUBJECT_LENGTH} characters: current value is ${
        showValue(subject)
      }`,
    );
  }
}

function keyEntry(key: unknown, name: string, signs: boolean): KeyEntry {
  if (!isRecord(key)) {
    throw new TypeError(`Cannot seal records as ${name} must be { id, secret }: current value is ${showValue(key)}`);
  }
  const { id, secret } = key;
  if (typeof id !== "string") {
    throw new TypeError(`Cannot seal records as ${name}.id must be a string: current value is ${showValue(id)}`);
  }
  if (id.length === 0 || id.length > MAX_KEY_ID_LENGTH) {
    throw new RangeError(
      `Cannot seal records as ${name}.id must be 1 to ${MAX_KEY_ID_LENGTH} characters: current value is ${
        showValue(id)
      }`,
    );
  }
  if (typeof secret === "string" || secret instanceof Uint8Array) {
    // A copy, so the caller's buffer can be wiped or reused without changing the key.
    const bytes = typeof secret === "string" ? new TextEncoder().encode(secret) : new Uint8Array(secret);
    if (bytes.length < MIN_SECRET_BYTES) {
      // The secret itself never appears in a message: only its length.
      throw new RangeError(
        `Cannot seal records as ${name}.secret must hold at least ${MIN_SECRET_BYTES} bytes: current value is ${bytes.length} bytes`,
      );
    }
    return { id, material: bytes };
  }
  if (isCryptoKey(secret)) {
    const algorithm = secret.algorithm as Partial<HmacKeyAlgorithm>;
    const usages = signs ? ["sign", "verify"] : ["verify"];
    if (
      algorithm.name !== "HMAC" || algorithm.hash?.name !== "SHA-256" ||
      !usages.every((usage) => secret.usages.includes(usage as KeyUsage))
    ) {
      throw new TypeError(
        `Cannot seal records as ${name}.secret must be an HMAC SHA-256 key with the ${
          usages.join(" and ")
        } usages: current value is a key for ${
          [algorithm.name, algorithm.hash?.name].filter(Boolean).join(" ")
        } with the ${secret.usages.join(" and ") || "no"} usages`,
      );
    }
    if (typeof algorithm.length !== "number" || algorithm.length < MIN_SECRET_BYTES * 8) {
      throw new RangeError(
        `Cannot seal records as ${name}.secret must hold at least ${MIN_SECRET_BYTES} bytes: current value is ${
          Math.floor((algorithm.length ?? 0) / 8)
        } bytes`,
      );
    }
    return { id, material: secret };
  }
  throw new TypeError(
    `Cannot seal records as ${name}.secret must be a Uint8Array, a string or a CryptoKey: current value is ${
      secret === null ? "null" : typeof secret
    }`,
  );
}

function isCryptoKey(value: unknown): value is CryptoKey {
  return typeof CryptoKey === "function" && value instanceof CryptoKey;
}
