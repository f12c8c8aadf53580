// A parked call's sealed record as the `requestState` a client echoes back.
// The SDK's own codec signs but does not encrypt, and a record carries what
// only the person answering should read (the reason, a payload such as a
// diff): so the record is encrypted with AES-256-GCM under a key derived
// (HKDF-SHA-256) from the seal's key, and verified with the set's seal on
// the way back in. GCM's tag makes a changed state fail to open at all;
// the seal then proves the record is one this set parked, for this subject,
// unexpired. Its single use is enforced by ToolSet.resume, which consumes
// the nonce.

import { RecordSeal, type SealKey, type SealOptions } from "../../core/seal/seal.ts";
import type { SuspendedCall } from "../../core/contract/suspend.ts";
import { showValue } from "../../core/common/_show_value.ts";
import type { ToolSet } from "../../core/dispatch/tool_set.ts";

const VERSION = "s1";
const IV_BYTES = 12;
// ASCII, so written without a TextEncoder: nothing global is touched at import.
const SALT = Uint8Array.from("salvor-mcp-request-state-v1", (char) => char.charCodeAt(0));
// A state is a record, which the set bounds at 256 KiB of JSON; anything far larger is not ours.
const MAX_STATE_CHARS = 1024 * 1024;

function toBase64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function secretBytes(key: SealKey, name: string): Uint8Array<ArrayBuffer> {
  if (typeof key.secret === "string") return new TextEncoder().encode(key.secret);
  if (key.secret instanceof Uint8Array) return new Uint8Array(key.secret);
  throw new TypeError(
    `Cannot serve MCP as ${name}.secret must be bytes or a string to derive the request-state key from: current value is ${
      showValue(key.secret)
    }`,
  );
}

async function stateKey(secret: Uint8Array<ArrayBuffer>, id: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", secret, "HKDF", false, ["deriveKey"]);
  return await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: SALT, info: new TextEncoder().encode(id) },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/** Seals records into request states and opens them again. */
export class RequestStateCodec {
  readonly #signing: string;
  readonly #keys: ReadonlyMap<string, Promise<CryptoKey>>;
  readonly #checker: RecordSeal;

  /**
   * @param seal The seal the served set was made with.
   * @throws {TypeError} When a key's secret is a `CryptoKey`, from which no other key can be derived.
   */
  constructor(seal: SealOptions) {
    const keys = [seal.key, ...(seal.keys ?? [])];
    const secrets = keys.map((key, i) =>
      secretBytes(key, i === 0 ? "options.seal.key" : `options.seal.keys[${i - 1}]`)
    );
    this.#signing = seal.key.id;
    this.#keys = new Map(keys.map((key, i) => [key.id, stateKey(secrets[i], key.id)]));
    // Checks only: the set's own resume uses the nonce up, once everything else has passed.
    this.#checker = new RecordSeal({ ...seal, nonces: { consume: () => true } });
  }

  /** The request state of a sealed record. */
  async seal(record: SuspendedCall): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const key = await this.#keys.get(this.#signing)!;
    const plain = new TextEncoder().encode(JSON.stringify(record));
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, plain));
    const body = new Uint8Array(IV_BYTES + sealed.length);
    body.set(iv);
    body.set(sealed, IV_BYTES);
    return `${VERSION}.${toBase64url(new TextEncoder().encode(this.#signing))}.${toBase64url(body)}`;
  }

  /**
   * The record a request state holds, verified with the seal.
   *
   * @throws {Error} With a short reason when the state is malformed, does not open, or its seal is refused.
   */
  async open(state: string, subject: string | undefined): Promise<SuspendedCall> {
    if (state.length > MAX_STATE_CHARS) throw new Error("oversized");
    const [version, kid, body, ...rest] = state.split(".");
    if (version !== VERSION || kid === undefined || body === undefined || rest.length > 0) throw new Error("malformed");
    let record: unknown;
    try {
      const key = await this.#keys.get(new TextDecoder().decode(fromBase64url(kid)));
      if (key === undefined) throw new Error("unknown key");
      const bytes = fromBase64url(body);
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: bytes.subarray(0, IV_BYTES) },
        key,
        bytes.subarray(IV_BYTES),
      );
      record = JSON.parse(new TextDecoder().decode(plain));
    } catch {
      throw new Error("does not open");
    }
    const verified = await this.#checker.verify(record, subject === undefined ? {} : { subject });
    if (!verified.ok) throw new Error(verified.reason);
    return record as SuspendedCall;
  }
}

/**
 * The codec for a served set, checked against how the set parks calls: a
 * set that may park calls must seal them, and the server needs the same
 * seal to encrypt and verify the state.
 *
 * @throws {TypeError} When the set and `seal` disagree, naming what is missing.
 */
export function requestStateCodec(toolset: ToolSet, seal: SealOptions | undefined): RequestStateCodec | undefined {
  const { approval, sealed } = toolset.parking;
  if (approval && !sealed) {
    throw new TypeError(
      "Cannot serve MCP as the set has an approval gate and no seal: current value would hand every parked call to the client as an unsealed record; make the set with { seal }",
    );
  }
  if (sealed && seal === undefined) {
    throw new TypeError(
      "Cannot serve MCP as the set seals its records and options.seal is missing: current value is undefined; give the server the set's seal, to encrypt and verify request states",
    );
  }
  if (!sealed && seal !== undefined) {
    throw new TypeError(
      "Cannot serve MCP as options.seal is given and the set has no seal: current value is a seal the set would not verify; make the set with the same { seal }",
    );
  }
  return seal === undefined ? undefined : new RequestStateCodec(seal);
}
