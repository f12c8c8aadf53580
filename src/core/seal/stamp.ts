/**
 * The stamp a sealed record carries, and what verifying one finds.
 *
 * @module
 */

/**
 * The stamp a sealed record carries in its `seal` field. Its fields are
 * what the sealer wrote only once {@linkcode RecordSeal.verify} says so:
 * read them from the `stamp` it returns.
 *
 * @example The stamp of a verified record
 * ```ts
 * import { RecordSeal } from "./seal.ts";
 * import assert from "node:assert/strict";
 *
 * const sealer = new RecordSeal({ key: { id: "k1", secret: crypto.getRandomValues(new Uint8Array(32)) } });
 * const result = await sealer.verify(await sealer.seal({ a: 1 }, "user_42"), { subject: "user_42" });
 * assert.ok(result.ok);
 * assert.equal(result.stamp.kid, "k1");
 * assert.equal(result.stamp.sub, "user_42");
 * assert.ok(result.stamp.exp > result.stamp.iat);
 * ```
 */
export interface SealStamp {
  /** The stamp's format version. */
  readonly v: 1;
  /** The id of the key that made the MAC. */
  readonly kid: string;
  /** 128 random bits, base64url: what makes the record single-use. */
  readonly nonce: string;
  /** When it was sealed, in milliseconds since the Unix epoch. */
  readonly iat: number;
  /** When it expires, in milliseconds since the Unix epoch. */
  readonly exp: number;
  /** Whom the record is for, when it was sealed for someone. */
  readonly sub?: string;
  /**
   * HMAC-SHA-256, base64url, of the UTF-8 bytes of `salvor-record-seal-v1`
   * and a line feed, then the SHA-256 digest (32 bytes) of the UTF-8 bytes
   * of the canonical JSON of the record with this stamp less `mac` (keys
   * sorted by UTF-16 code units, no whitespace).
   */
  readonly mac: string;
}

/**
 * A record with its stamp, as {@linkcode RecordSeal.seal} returns it.
 *
 * @example The type of a sealed parked call
 * ```ts
 * import { RecordSeal, type Sealed } from "./seal.ts";
 * import assert from "node:assert/strict";
 *
 * const sealer = new RecordSeal({ key: { id: "k1", secret: crypto.getRandomValues(new Uint8Array(32)) } });
 * const sealed: Sealed<{ callId: string }> = await sealer.seal({ callId: "c1" });
 * assert.equal(sealed.callId, "c1");
 * assert.equal(sealed.seal.v, 1);
 * ```
 */
export type Sealed<T extends object> = T & { readonly seal: SealStamp };

/**
 * Why {@linkcode RecordSeal.verify} refused a record: `unsealed` (no
 * `seal` field), `malformed` (not plain JSON within the limits, or a
 * stamp of the wrong shape), `unknown_key`, `bad_mac` (changed, or sealed
 * with another secret), `expired`, `not_yet_valid` (dated more than 60 s
 * ahead), `subject_mismatch`, `replayed` (its nonce was used).
 *
 * @example Telling an expired record from a forged one
 * ```ts
 * import { RecordSeal, type VerifyFailureReason } from "./seal.ts";
 * import assert from "node:assert/strict";
 *
 * let now = 0;
 * const sealer = new RecordSeal({ key: { id: "k1", secret: "0123456789abcdef0123456789abcdef" }, now: () => now });
 * const sealed = await sealer.seal({ a: 1 });
 * now = 25 * 60 * 60 * 1000;
 * const result = await sealer.verify(sealed);
 * const reason: VerifyFailureReason | undefined = result.ok ? undefined : result.reason;
 * assert.equal(reason, "expired");
 * ```
 */
export type VerifyFailureReason =
  | "unsealed"
  | "malformed"
  | "unknown_key"
  | "bad_mac"
  | "expired"
  | "not_yet_valid"
  | "subject_mismatch"
  | "replayed";

/**
 * What {@linkcode RecordSeal.verify} found. On success, `record` is plain
 * JSON this host sealed, unchanged, but not yet checked against any
 * schema: check its shape as for any stored data. On failure, nothing of
 * the record is returned.
 *
 * @example Narrow on ok before reading the record
 * ```ts
 * import { RecordSeal, type VerifyResult } from "./seal.ts";
 * import assert from "node:assert/strict";
 *
 * const sealer = new RecordSeal({ key: { id: "k1", secret: "0123456789abcdef0123456789abcdef" } });
 * const result: VerifyResult = await sealer.verify(await sealer.seal({ callId: "c1" }));
 * if (result.ok) assert.equal(result.record.callId, "c1");
 * else assert.fail(result.message);
 * ```
 */
export type VerifyResult =
  | { readonly ok: true; readonly record: Record<string, unknown>; readonly stamp: SealStamp }
  | { readonly ok: false; readonly reason: VerifyFailureReason; readonly message: string };
