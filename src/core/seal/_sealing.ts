// The seal's work, loaded apart from the core on a seal's first `seal` or
// `verify` (`./_apart.ts`): the HMAC, and reading a stamp and a record back.
// `RecordSeal` checks its options and the arguments it is given; it stamps
// and reads a record to seal at the call, and hands the rest here.

import { isRecord } from "../common/_is_record.ts";
import { decodeBase64url, encodeBase64url } from "./_base64url.ts";
import { slices } from "../common/_slices.ts";
import { Sha256 } from "./_sha256.ts";
import { type Canonical, type CanonicalLimits, canonicalRead, canonicalReadPaced } from "./_canonical_json.ts";
import {
  clock,
  type KeyEntry,
  MAX_KEY_ID_LENGTH,
  MAX_SUBJECT_LENGTH,
  NONCE_BYTES,
  type SealSettings,
} from "./_settings.ts";
import type { Sealed, SealStamp, VerifyFailureReason, VerifyResult } from "./stamp.ts";

// How far ahead of this host's clock another host's may run: a record sealed
// there a moment ago still verifies here.
const CLOCK_SKEW_MS = 60_000;
const MAC_BYTES = 32;
// Binds a MAC to this format, so no other use of the same key yields a valid one.
const DOMAIN = "salvor-record-seal-v1\n";
const STAMP_FIELDS = new Set(["v", "kid", "nonce", "iat", "exp", "sub", "mac"]);
// A stamp is a few short fields, read alone before the record, within bounds of its own (loose enough that
// readStamp, not the bounds, says what is wrong with a stamp that is not far off).
const STAMP_LIMITS: CanonicalLimits = Object.freeze({
  maxDepth: 2,
  maxChars: 4096,
  maxMembers: 64,
  maxKeyChars: 4096,
});
const HMAC_SHA256 = { name: "HMAC", hash: "SHA-256" } as const;

// Made on first use: touching a global at import would be a side effect (Node defines some lazily).
let encoder: TextEncoder | undefined;

/**
 * Puts its MAC on a record `RecordSeal.seal` has stamped and read at the call (see there): over the text it read (the
 * record with its stamp beside it), encoded in paced steps, and into the copy it read.
 */
export async function sealRecord<T extends object>(
  settings: SealSettings,
  stamp: Omit<SealStamp, "mac">,
  read: Canonical,
): Promise<Sealed<T>> {
  const copy = read.copy as Record<string, unknown>;
  const key = await cryptoKey(settings.signing);
  const mac = new Uint8Array(await crypto.subtle.sign(HMAC_SHA256, key, await signedBytes(read.pieces, slices())));
  copy.seal = { ...stamp, mac: encodeBase64url(mac) };
  return copy as Sealed<T>;
}

/** Reads a record only its caller holds in paced steps, then puts its MAC on it as {@linkcode sealRecord} does. */
export async function sealHeldRecord<T extends object>(
  settings: SealSettings,
  stamp: Omit<SealStamp, "mac">,
  record: T,
): Promise<Sealed<T>> {
  return await sealRecord<T>(settings, stamp, await canonicalReadPaced(record, slices(), { seal: stamp }));
}

/**
 * Checks a record read back from storage, for the subject `RecordSeal.verify` has checked (see there). Anyone may
 * have written it, as long as the bounds allow: its stamp is read first, alone, and then the record is read once, in
 * paced steps, into the copy it returns and the text its MAC covers (the record's, with the stamp but not its MAC).
 */
export async function verifyRecord(
  settings: SealSettings,
  record: unknown,
  subject: string | undefined,
): Promise<VerifyResult> {
  const pause = slices();
  let stamp: SealStamp | string | undefined;
  let copy: unknown;
  let pieces: readonly string[];
  try {
    // Only an own, enumerable seal is part of the record's JSON.
    const field = isRecord(record) && Object.prototype.propertyIsEnumerable.call(record, "seal")
      ? record.seal
      : undefined;
    stamp = field === undefined ? undefined : readStamp(canonicalRead(field, STAMP_LIMITS).copy);
    // A stamp that cannot be read is written as null: the record is refused for it once its body has been read.
    const seal = typeof stamp === "object" ? withoutMac(stamp) : null;
    ({ pieces, copy } = await canonicalReadPaced(record, pause, field === undefined ? undefined : { seal }));
  } catch (error) {
    const what = error instanceof RangeError && /^Cannot encode/.test(error.message)
      ? "nests too deep or is too large to have been sealed"
      : "is not plain JSON";
    return refuse("malformed", `The record ${what}.`);
  }
  if (!isRecord(copy)) return refuse("malformed", "A sealed record must be a JSON object.");
  if (stamp === undefined) return refuse("unsealed", "The record has no seal field.");
  if (typeof stamp === "string") return refuse("malformed", stamp);
  const entry = settings.keys.get(stamp.kid);
  if (entry === undefined) {
    // The kid is not quoted: nothing the record says reaches a message before its MAC is checked.
    return refuse("unknown_key", "The record was sealed with a key this seal does not hold.");
  }
  const key = await cryptoKey(entry);
  const macBytes = decodeBase64url(stamp.mac, MAC_BYTES) as Uint8Array<ArrayBuffer>;
  if (!await crypto.subtle.verify(HMAC_SHA256, key, macBytes, await signedBytes(pieces, pause))) {
    return refuse("bad_mac", "The record or its stamp was changed after it was sealed, or sealed with another key.");
  }
  const now = clock(settings);
  const expired = () => refuse("expired", `The record's seal expired at ${new Date(stamp.exp).toISOString()}.`);
  if (now >= stamp.exp) return expired();
  if (stamp.iat > now + CLOCK_SKEW_MS) {
    return refuse("not_yet_valid", `The record's seal is dated ${new Date(stamp.iat).toISOString()}, in the future.`);
  }
  if (stamp.sub !== subject) {
    const message = stamp.sub === undefined
      ? "The record was sealed for no subject, and a subject was expected."
      : subject === undefined
      ? "The record was sealed for a subject, and none was given."
      : "The record was sealed for another subject.";
    return refuse("subject_mismatch", message);
  }
  if (await settings.nonces.consume(stamp.nonce, stamp.exp) !== true) {
    return refuse("replayed", "The record's nonce was used before (or the nonce store could not record it).");
  }
  // A store may forget a nonce as it expires: one taken again by a record that expired as it was checked is no use.
  if (clock(settings) >= stamp.exp) return expired();
  const { seal: _, ...rest } = copy;
  return { ok: true, record: rest, stamp: Object.freeze(stamp) };
}

/**
 * The bytes a MAC covers: the format's domain, then the SHA-256 digest of the canonical text of the record with its
 * stamp but no MAC, encoded and hashed a piece at a time. WebCrypto copies what it signs in one stretch, which for the
 * text itself held the host 70-90 ms for 16 MB where fresh memory maps slowly.
 */
async function signedBytes(pieces: readonly string[], pause: () => Promise<void>): Promise<Uint8Array<ArrayBuffer>> {
  encoder ??= new TextEncoder();
  const hash = new Sha256();
  for (const piece of pieces) {
    hash.update(encoder.encode(piece));
    await pause();
  }
  const domain = encoder.encode(DOMAIN);
  const signed = new Uint8Array(domain.length + 32);
  signed.set(domain);
  signed.set(hash.digest(), domain.length);
  return signed;
}

function refuse(reason: VerifyFailureReason, message: string): VerifyResult {
  return { ok: false, reason, message };
}

/** The stamp, or what is wrong with it. Reads only the stamp: nothing else is trusted yet. */
function readStamp(value: unknown): SealStamp | string {
  if (!isRecord(value)) return "The record's seal must be an object.";
  for (const field of Object.keys(value)) {
    if (!STAMP_FIELDS.has(field)) return "The record's seal has a field a version 1 seal does not.";
  }
  const { v, kid, nonce, iat, exp, sub, mac } = value;
  if (v !== 1) return "Only version 1 seals can be verified.";
  if (typeof kid !== "string" || kid.length === 0 || kid.length > MAX_KEY_ID_LENGTH) {
    return `The seal's kid must be a string of 1 to ${MAX_KEY_ID_LENGTH} characters.`;
  }
  if (typeof nonce !== "string" || decodeBase64url(nonce, NONCE_BYTES) === undefined) {
    return `The seal's nonce must be ${NONCE_BYTES} bytes in base64url.`;
  }
  if (!Number.isSafeInteger(iat) || (iat as number) < 0) return "The seal's iat must be a time in milliseconds.";
  if (!Number.isSafeInteger(exp) || (exp as number) <= (iat as number)) {
    return "The seal's exp must be a time in milliseconds after its iat.";
  }
  if (sub !== undefined && (typeof sub !== "string" || sub.length === 0 || sub.length > MAX_SUBJECT_LENGTH)) {
    return `The seal's sub must be a string of 1 to ${MAX_SUBJECT_LENGTH} characters.`;
  }
  if (typeof mac !== "string" || decodeBase64url(mac, MAC_BYTES) === undefined) {
    return `The seal's mac must be ${MAC_BYTES} bytes in base64url.`;
  }
  return {
    v: 1,
    kid,
    nonce,
    iat: iat as number,
    exp: exp as number,
    ...(sub === undefined ? {} : { sub: sub as string }),
    mac,
  };
}

function cryptoKey(entry: KeyEntry): Promise<CryptoKey> {
  if (!(entry.material instanceof Uint8Array)) return Promise.resolve(entry.material);
  entry.imported ??= crypto.subtle.importKey("raw", entry.material, HMAC_SHA256, false, ["sign", "verify"]);
  return entry.imported;
}

/** What the MAC covers of a stamp: all of it but the MAC. */
function withoutMac(stamp: SealStamp): Omit<SealStamp, "mac"> {
  const { mac: _, ...signed } = stamp;
  return signed;
}
