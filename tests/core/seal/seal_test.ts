// Sealing parked-call records: what verifies, what is refused and why, and
// that a refusal never uses up a record's nonce.

import assert from "node:assert/strict";
import {
  MemoryNonceStore,
  type NonceStore,
  RecordSeal,
  type SealKey,
  type SealOptions,
  type VerifyFailureReason,
  type VerifyResult,
} from "../../../src/core/seal/seal.ts";
import { gapBound, largestGap } from "../../fixtures/event_loop.ts";

const K1: SealKey = { id: "k1", secret: "0123456789abcdef0123456789abcdef" };
const K2: SealKey = { id: "k2", secret: new Uint8Array(32).fill(7) };

/** A parked call with nested input, as a ToolSet would emit it. */
function sampleRecord() {
  return {
    v: 1,
    callId: "call_1",
    tool: "write_file",
    version: "1.0.0",
    input: { path: "notes.txt", options: { mode: 420, flags: ["create", "truncate"] }, chunks: [1, { text: "hi" }] },
    reason: "Overwrite notes.txt?",
    resumeSchema: { type: "object", properties: { approved: { type: "boolean" } }, required: ["approved"] },
    payload: null,
    origin: "approval",
    idempotencyKey: "idem_1",
  };
}

/** A nonce store that counts the calls that reach it. */
class CountingStore implements NonceStore {
  calls = 0;
  readonly #inner: MemoryNonceStore;
  constructor(now?: () => number) {
    this.#inner = new MemoryNonceStore({ now });
  }
  consume(nonce: string, expiresAt: number): boolean {
    this.calls++;
    return this.#inner.consume(nonce, expiresAt);
  }
}

function reasonOf(result: VerifyResult): VerifyFailureReason | "ok" {
  return result.ok ? "ok" : result.reason;
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

Deno.test("RecordSeal.verify() accepts a sealed record and returns it without its seal", async () => {
  const seal = new RecordSeal({ key: K1 });
  const sealed = await seal.seal(sampleRecord());
  const result = await seal.verify(sealed);
  assert.equal(result.ok, true);
  if (!result.ok) return;
  assert.deepEqual(result.record, sampleRecord());
  assert.deepEqual(result.stamp, sealed.seal);
});

Deno.test("RecordSeal.verify() accepts a sealed record after a JSON round trip", async () => {
  const seal = new RecordSeal({ key: K1 });
  const stored = JSON.stringify(await seal.seal(sampleRecord(), "user_1"));
  const result = await seal.verify(JSON.parse(stored), { subject: "user_1" });
  assert.equal(reasonOf(result), "ok");
  if (result.ok) assert.deepEqual(result.record, sampleRecord());
});

Deno.test("RecordSeal.seal() stamps a 128-bit nonce, the key id, the times and a 256-bit MAC", async () => {
  const seal = new RecordSeal({ key: K1, ttlMs: 5_000, now: () => 1_700_000_000_000 });
  const sealed = await seal.seal({ a: 1 }, "user_1");
  assert.deepEqual(Object.keys(sealed.seal).sort(), ["exp", "iat", "kid", "mac", "nonce", "sub", "v"]);
  assert.equal(sealed.seal.v, 1);
  assert.equal(sealed.seal.kid, "k1");
  assert.match(sealed.seal.nonce, /^[A-Za-z0-9_-]{22}$/);
  assert.match(sealed.seal.mac, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(sealed.seal.iat, 1_700_000_000_000);
  assert.equal(sealed.seal.exp, 1_700_000_005_000);
  assert.equal(sealed.seal.sub, "user_1");
  const nonces = new Set<string>();
  for (let i = 0; i < 1000; i++) nonces.add((await seal.seal({ a: 1 })).seal.nonce);
  assert.equal(nonces.size, 1000);
});

Deno.test("RecordSeal.seal() returns a copy that later changes to the record do not reach", async () => {
  const seal = new RecordSeal({ key: K1 });
  const record = sampleRecord();
  const sealed = await seal.seal(record);
  record.input.path = "/etc/passwd";
  record.input.options.flags.push("append");
  assert.equal(sealed.input.path, "notes.txt");
  assert.deepEqual(sealed.input.options.flags, ["create", "truncate"]);
  assert.equal(reasonOf(await seal.verify(sealed)), "ok");
});

Deno.test("RecordSeal.seal() leaves out undefined properties, as storing the record as JSON would", async () => {
  const seal = new RecordSeal({ key: K1 });
  const sealed = await seal.seal({ a: 1, b: undefined, nested: { c: undefined, d: 2 } });
  assert.equal(Object.hasOwn(sealed, "b"), false);
  const result = await seal.verify(clone(sealed));
  assert.equal(result.ok, true);
  if (result.ok) assert.deepEqual(result.record, { a: 1, nested: { d: 2 } });
});

Deno.test("RecordSeal.seal() refuses what is not a plain JSON object, or is already sealed", async () => {
  const seal = new RecordSeal({ key: K1 });
  const refusals: [unknown, string | RegExp][] = [
    [[1, 2], /^Cannot seal records as a record must be a plain object: current value is \[1,2\]$/],
    [null, /must be a plain object/],
    [{ run: () => 1 }, "Cannot encode the value as JSON as it holds a function, which JSON cannot carry at /run"],
    [{ n: NaN }, "Cannot encode the value as JSON as it holds the number NaN, which JSON cannot carry at /n"],
    [{ n: 1n }, /holds a bigint/],
    [{ at: new Date(0) }, /neither a plain object nor an array at \/at/],
    [{ list: [1, undefined] }, /holds undefined in an array/],
    [{ seal: 1 }, /already has a seal field/],
  ];
  for (const [record, message] of refusals) {
    await assert.rejects(seal.seal(record as object), { name: "TypeError", message }, showForAssert(record));
  }
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  await assert.rejects(seal.seal(cyclic), { name: "TypeError", message: /holds a cycle at \/self/ });
  await assert.rejects(seal.seal({ a: 1 }, ""), { name: "TypeError", message: /subject must be a string/ });
});

function showForAssert(value: unknown): string {
  try {
    return String(JSON.stringify(value));
  } catch {
    return typeof value;
  }
}

/** Every path to a value in a JSON value, the root included. */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const found = [at];
  if (Array.isArray(value)) value.forEach((item, i) => found.push(...paths(item, [...at, i])));
  else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) found.push(...paths(item, [...at, key]));
  }
  return found;
}

function get(root: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], root);
}

/** Copies of a record, each with one change at one path: a value changed, a field added, a field removed. */
function tamperings(record: object): { what: string; path: string; record: Record<string, unknown> }[] {
  const out: { what: string; path: string; record: Record<string, unknown> }[] = [];
  for (const path of paths(record)) {
    const where = `/${path.join("/")}`;
    const changed = (
      what: string,
      change: (parent: Record<string | number, unknown>, key: string | number) => void,
    ) => {
      const copy = clone(record) as Record<string, unknown>;
      change(get(copy, path.slice(0, -1)) as Record<string | number, unknown>, path[path.length - 1]);
      out.push({ what, path: where, record: copy });
    };
    const value = get(record, path);
    if (path.length > 0) {
      if (typeof value === "string") {
        changed("change a string", (p, k) => p[k] = `${value}x`);
        changed("change a string's first character", (p, k) => p[k] = (value[0] === "A" ? "B" : "A") + value.slice(1));
      }
      if (typeof value === "number") changed("change a number", (p, k) => p[k] = value + 1);
      if (typeof value === "boolean" || value === null) changed("change a literal", (p, k) => p[k] = 0);
      changed("remove a field", (p, k) => Array.isArray(p) ? p.splice(k as number, 1) : delete p[k]);
    }
    if (Array.isArray(value)) {
      const copy = clone(record) as Record<string, unknown>;
      (get(copy, path) as unknown[]).push(1);
      out.push({ what: "add an item", path: where, record: copy });
    } else if (typeof value === "object" && value !== null) {
      const copy = clone(record) as Record<string, unknown>;
      (get(copy, path) as Record<string, unknown>).extra = 1;
      out.push({ what: "add a field", path: where, record: copy });
    }
  }
  return out;
}

Deno.test("RecordSeal.verify() refuses a change to any field of the record or of its stamp", async () => {
  const store = new CountingStore();
  const seal = new RecordSeal({ key: K1, nonces: store });
  const sealed = await seal.seal(sampleRecord(), "user_1");
  const cases = tamperings(sealed);
  assert.ok(cases.length > 60, `only ${cases.length} tamperings`);
  for (const { what, path, record } of cases) {
    const reason = reasonOf(await seal.verify(record, { subject: "user_1" }));
    // Without its seal a record is unsealed; a changed kid names a key this seal does not hold.
    const allowed = path === "/seal" && what === "remove a field"
      ? ["unsealed"]
      : path === "/seal/kid" && what !== "remove a field"
      ? ["unknown_key"]
      : ["bad_mac", "malformed"];
    assert.ok(allowed.includes(reason), `${what} at ${path} gave ${reason}`);
  }
  assert.equal(store.calls, 0);
  assert.equal(reasonOf(await seal.verify(sealed, { subject: "user_1" })), "ok");
});

Deno.test("RecordSeal.verify() refuses a stamp moved onto another record, or given another valid nonce or MAC", async () => {
  const seal = new RecordSeal({ key: K1, keys: [K2] });
  const a = await seal.seal({ tool: "read_file" });
  const b = await seal.seal({ tool: "delete_file" });
  assert.equal(reasonOf(await seal.verify({ ...b, seal: a.seal })), "bad_mac");
  assert.equal(reasonOf(await seal.verify({ ...a, seal: { ...a.seal, nonce: b.seal.nonce } })), "bad_mac");
  assert.equal(reasonOf(await seal.verify({ ...a, seal: { ...a.seal, mac: b.seal.mac } })), "bad_mac");
  assert.equal(reasonOf(await seal.verify({ ...a, seal: { ...a.seal, kid: "k2" } })), "bad_mac");
  assert.equal(reasonOf(await seal.verify(a)), "ok");
  assert.equal(reasonOf(await seal.verify(b)), "ok");
});

Deno.test("RecordSeal.verify() refuses a nonce or MAC spelled in a second base64url form", async () => {
  const seal = new RecordSeal({ key: K1 });
  const sealed = await seal.seal({ a: 1 });
  // The last character of 16 bytes in base64url carries 2 bits; the other 4 must be zero.
  const last = sealed.seal.nonce.at(-1)!;
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const sibling = alphabet[alphabet.indexOf(last) + 1];
  const nonce = sealed.seal.nonce.slice(0, -1) + sibling;
  assert.equal(reasonOf(await seal.verify({ ...sealed, seal: { ...sealed.seal, nonce } })), "malformed");
});

Deno.test("RecordSeal.verify() reports replayed for a record verified before, in any copy", async () => {
  const seal = new RecordSeal({ key: K1 });
  const sealed = await seal.seal(sampleRecord());
  const stored = JSON.stringify(sealed);
  assert.equal(reasonOf(await seal.verify(JSON.parse(stored))), "ok");
  const again = await seal.verify(JSON.parse(stored));
  assert.equal(reasonOf(again), "replayed");
  assert.equal(
    again.ok === false && again.message,
    "The record's nonce was used before (or the nonce store could not record it).",
  );
  assert.equal(reasonOf(await seal.verify(sealed)), "replayed");
});

Deno.test("RecordSeal.verify() shares single use through the nonce store between seals", async () => {
  const nonces = new MemoryNonceStore();
  const first = new RecordSeal({ key: K1, nonces });
  const second = new RecordSeal({ key: K1, nonces });
  const sealed = await first.seal({ a: 1 });
  assert.equal(reasonOf(await second.verify(sealed)), "ok");
  assert.equal(reasonOf(await first.verify(sealed)), "replayed");
});

Deno.test("RecordSeal.verify() works with an asynchronous nonce store", async () => {
  const seen = new Set<string>();
  const nonces: NonceStore = {
    async consume(nonce) {
      await Promise.resolve();
      if (seen.has(nonce)) return false;
      seen.add(nonce);
      return true;
    },
  };
  const seal = new RecordSeal({ key: K1, nonces });
  const sealed = await seal.seal({ a: 1 });
  assert.equal(reasonOf(await seal.verify(sealed)), "ok");
  assert.equal(reasonOf(await seal.verify(sealed)), "replayed");
});

Deno.test("RecordSeal.verify() passes on what a nonce store throws: an unavailable store is not a verdict", async () => {
  const nonces: NonceStore = {
    consume() {
      throw new Error("store unavailable");
    },
  };
  const seal = new RecordSeal({ key: K1, nonces });
  await assert.rejects(seal.verify(await seal.seal({ a: 1 })), { message: "store unavailable" });
});

Deno.test("RecordSeal.verify() reports expired at exp, and does not use up the nonce", async () => {
  let now = 1_700_000_000_000;
  const seal = new RecordSeal({ key: K1, ttlMs: 60_000, now: () => now });
  const sealed = await seal.seal({ a: 1 });
  now += 60_000;
  const result = await seal.verify(sealed);
  assert.equal(reasonOf(result), "expired");
  assert.equal(result.ok === false && result.message, "The record's seal expired at 2023-11-14T22:14:20.000Z.");
  now -= 1;
  assert.equal(reasonOf(await seal.verify(sealed)), "ok");
});

Deno.test("RecordSeal.verify() allows 60 s of clock skew for a seal dated in the future", async () => {
  let sealerNow = 1_700_000_060_000;
  const verifierNow = 1_700_000_000_000;
  const sealer = new RecordSeal({ key: K1, now: () => sealerNow });
  const verifier = new RecordSeal({ key: K1, now: () => verifierNow });
  assert.equal(reasonOf(await verifier.verify(await sealer.seal({ a: 1 }))), "ok");
  sealerNow += 1;
  const ahead = await sealer.seal({ a: 1 });
  assert.equal(reasonOf(await verifier.verify(ahead)), "not_yet_valid");
  assert.equal(reasonOf(await sealer.verify(ahead)), "ok");
});

Deno.test("RecordSeal.verify() reports unknown_key for a seal made with a key it does not hold", async () => {
  const sealed = await new RecordSeal({ key: K1 }).seal({ a: 1 });
  const result = await new RecordSeal({ key: K2 }).verify(sealed);
  assert.equal(reasonOf(result), "unknown_key");
  assert.equal(
    result.ok === false && result.message,
    "The record was sealed with a key this seal does not hold.",
  );
});

Deno.test("RecordSeal.verify() reports bad_mac for a key of the same id with another secret", async () => {
  const sealed = await new RecordSeal({ key: K1 }).seal({ a: 1 });
  const impostor = new RecordSeal({ key: { id: "k1", secret: "another secret of thirty-two bytes" } });
  assert.equal(reasonOf(await impostor.verify(sealed)), "bad_mac");
});

Deno.test("RecordSeal rotates keys: the new key signs, the old one in keys still verifies", async () => {
  const old = new RecordSeal({ key: K1 });
  const rotated = new RecordSeal({ key: K2, keys: [K1] });
  const before = await old.seal({ a: 1 });
  const after = await rotated.seal({ a: 2 });
  assert.equal(after.seal.kid, "k2");
  assert.equal(reasonOf(await rotated.verify(before)), "ok");
  assert.equal(reasonOf(await rotated.verify(after)), "ok");
  assert.equal(reasonOf(await old.verify(await rotated.seal({ a: 3 }))), "unknown_key");
});

Deno.test("RecordSeal verifies with a WebCrypto HMAC key", async () => {
  const secret = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256", length: 256 }, false, [
    "sign",
    "verify",
  ]);
  const seal = new RecordSeal({ key: { id: "hsm", secret } });
  assert.equal(reasonOf(await seal.verify(await seal.seal({ a: 1 }))), "ok");
});

Deno.test("RecordSeal.verify() checks the subject both ways, without using up the nonce", async () => {
  const seal = new RecordSeal({ key: K1 });
  const forUser = await seal.seal({ a: 1 }, "user_1");
  const forNone = await seal.seal({ a: 2 });
  const mismatches: [object, string | undefined, string][] = [
    [forUser, undefined, "The record was sealed for a subject, and none was given."],
    [forUser, "user_2", "The record was sealed for another subject."],
    [forNone, "user_1", "The record was sealed for no subject, and a subject was expected."],
  ];
  for (const [record, subject, message] of mismatches) {
    const result = await seal.verify(record, { subject });
    assert.deepEqual(result, { ok: false, reason: "subject_mismatch", message });
  }
  assert.equal(reasonOf(await seal.verify(forUser, { subject: "user_1" })), "ok");
  assert.equal(reasonOf(await seal.verify(forNone)), "ok");
  await assert.rejects(seal.verify(forNone, { subject: 42 as unknown as string }), { name: "TypeError" });
});

Deno.test("RecordSeal.verify() reports unsealed for a record without a seal, and malformed for a broken stamp", async () => {
  const seal = new RecordSeal({ key: K1 });
  assert.equal(reasonOf(await seal.verify(sampleRecord())), "unsealed");
  const sealed = await seal.seal({ a: 1 });
  // A seal that is not an enumerable own field is no part of the record's JSON.
  const hidden = Object.defineProperty({ a: 1 }, "seal", { value: sealed.seal, enumerable: false });
  assert.equal(reasonOf(await seal.verify(hidden)), "unsealed");
  const broken: unknown[] = [
    { ...sealed, seal: null },
    { ...sealed, seal: "stamp" },
    { ...sealed, seal: { ...sealed.seal, v: 2 } },
    { ...sealed, seal: { ...sealed.seal, kid: "" } },
    { ...sealed, seal: { ...sealed.seal, kid: 1 } },
    { ...sealed, seal: { ...sealed.seal, nonce: "short" } },
    { ...sealed, seal: { ...sealed.seal, iat: 1.5 } },
    { ...sealed, seal: { ...sealed.seal, exp: sealed.seal.iat } },
    { ...sealed, seal: { ...sealed.seal, sub: "" } },
    { ...sealed, seal: { ...sealed.seal, mac: sealed.seal.mac + "A" } },
    { ...sealed, seal: { ...sealed.seal, extra: true } },
    "a string",
    42,
    null,
    undefined,
    [sealed],
  ];
  for (const record of broken) {
    assert.equal(reasonOf(await seal.verify(record)), "malformed", showForAssert(record));
  }
  assert.equal(reasonOf(await seal.verify(sealed)), "ok");
});

Deno.test("RecordSeal.verify() calls the nonce store only for a record that passed every other check", async () => {
  let now = 1_700_000_000_000;
  // On the seal's clock: a store whose clock runs past a record's expiry refuses its nonce.
  const store = new CountingStore(() => now);
  const seal = new RecordSeal({ key: K1, keys: [K2], nonces: store, ttlMs: 1_000, now: () => now });
  const sealed = await seal.seal({ a: 1 }, "user_1");
  const failing: [unknown, string | undefined, VerifyFailureReason][] = [
    [{ a: 1 }, "user_1", "unsealed"],
    [{ ...sealed, seal: { ...sealed.seal, v: 2 } }, "user_1", "malformed"],
    [{ ...sealed, seal: { ...sealed.seal, kid: "k9" } }, "user_1", "unknown_key"],
    [{ ...sealed, a: 2 }, "user_1", "bad_mac"],
    [sealed, "user_2", "subject_mismatch"],
  ];
  for (const [record, subject, reason] of failing) {
    assert.equal(reasonOf(await seal.verify(record, { subject })), reason);
  }
  now += 1_000;
  assert.equal(reasonOf(await seal.verify(sealed, { subject: "user_1" })), "expired");
  assert.equal(store.calls, 0);
  now -= 1_000;
  assert.equal(reasonOf(await seal.verify(sealed, { subject: "user_1" })), "ok");
  assert.equal(store.calls, 1);
});

Deno.test("RecordSeal keeps a record's own __proto__ key as data, and covers it by the MAC", async () => {
  const seal = new RecordSeal({ key: K1 });
  const record = JSON.parse('{"__proto__":{"admin":true},"a":1}');
  const stored = JSON.stringify(await seal.seal(record));
  assert.match(stored, /"__proto__":\{"admin":true\}/);
  const tampered = JSON.parse(stored.replace('"admin":true', '"admin":false'));
  assert.equal(reasonOf(await seal.verify(tampered)), "bad_mac");
  const result = await seal.verify(JSON.parse(stored));
  assert.equal(result.ok, true);
  if (!result.ok) return;
  assert.equal(Object.getPrototypeOf(result.record), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(result.record, "__proto__")?.value, { admin: true });
  assert.equal((result.record as { admin?: boolean }).admin, undefined);
});

Deno.test("RecordSeal.verify() never throws on hostile records", async () => {
  const seal = new RecordSeal({ key: K1 });
  const sealed = await seal.seal(sampleRecord());
  const throwing = Object.defineProperty(clone(sealed), "tool", {
    enumerable: true,
    get() {
      throw new Error("boom");
    },
  });
  const throwingSeal = {
    ...clone(sealed),
    get seal() {
      throw new Error("boom");
    },
  };
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  const trapping = new Proxy(clone(sealed), {
    ownKeys() {
      throw new Error("boom");
    },
  });
  const prototypeTrap = new Proxy({}, {
    getPrototypeOf() {
      throw new Error("boom");
    },
  });
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < 100_000; i++) deep = { a: deep };
  const deepArray: unknown[] = [];
  let cursor = deepArray;
  for (let i = 0; i < 100_000; i++) cursor = (cursor[0] = []) as unknown[];
  const cyclic = clone(sealed) as Record<string, unknown>;
  (cyclic.input as Record<string, unknown>).self = cyclic;
  const hostile: [string, unknown, VerifyFailureReason][] = [
    ["a throwing getter", throwing, "malformed"],
    ["a throwing seal getter", throwingSeal, "malformed"],
    ["a revoked proxy", revoked, "malformed"],
    ["a revoked proxy inside", { ...clone(sealed), input: revoked }, "malformed"],
    ["a throwing ownKeys trap", trapping, "malformed"],
    ["a throwing getPrototypeOf trap", prototypeTrap, "malformed"],
    ["100,000-deep objects", deep, "malformed"],
    ["100,000-deep arrays", deepArray, "malformed"],
    ["100,000-deep input", { ...clone(sealed), input: deep }, "malformed"],
    ["a cycle", cyclic, "malformed"],
    ["a function", { ...clone(sealed), input: () => 1 }, "malformed"],
    ["a symbol", { ...clone(sealed), input: Symbol("s") }, "malformed"],
    ["a BigInt", { ...clone(sealed), input: 1n }, "malformed"],
    ["Infinity", { ...clone(sealed), input: Infinity }, "malformed"],
    ["a Map", { ...clone(sealed), input: new Map() }, "malformed"],
    ["a 5 MB string", { ...clone(sealed), reason: "x".repeat(5_000_000) }, "bad_mac"],
    ["a 20 MB string", { ...clone(sealed), reason: "x".repeat(20_000_000) }, "malformed"],
    ["20 MB of keys", {
      ...clone(sealed),
      input: Object.fromEntries(Array.from({ length: 1_000_000 }, (_, i) => [`key_${i}_padding`, 1])),
    }, "malformed"],
  ];
  for (const [what, record, reason] of hostile) {
    let result: VerifyResult;
    try {
      result = await seal.verify(record);
    } catch (error) {
      assert.fail(`${what} threw ${error}`);
    }
    assert.equal(reasonOf(result), reason, what);
  }
  assert.equal(reasonOf(await seal.verify(sealed)), "ok");
});

Deno.test("RecordSeal.verify() reads each field once, so a getter cannot show the MAC one value and the caller another", async () => {
  const seal = new RecordSeal({ key: K1 });
  const sealed = clone(await seal.seal({ tool: "read_file", input: { path: "notes.txt" } }));
  let reads = 0;
  Object.defineProperty(sealed.input, "path", {
    enumerable: true,
    get() {
      reads++;
      return reads === 1 ? "notes.txt" : "/etc/passwd";
    },
  });
  const result = await seal.verify(sealed);
  assert.equal(result.ok, true);
  assert.equal(reads, 1);
  if (result.ok) assert.deepEqual(result.record.input, { path: "notes.txt" });
  // The stamp is read first, alone, and once too: the MAC is checked against what that one read gave.
  const again = clone(await seal.seal({ tool: "read_file" }));
  const stamp = again.seal;
  let stampReads = 0;
  Object.defineProperty(again, "seal", {
    enumerable: true,
    get() {
      stampReads++;
      return stampReads === 1 ? stamp : { ...stamp, exp: stamp.exp + 1 };
    },
  });
  const verified = await seal.verify(again);
  assert.equal(verified.ok && verified.stamp.exp, stamp.exp);
  assert.equal(stampReads, 1);
});

Deno.test("RecordSeal.seal() and verify() handle a 5 MB string", async () => {
  const seal = new RecordSeal({ key: K1 });
  const sealed = await seal.seal({ text: "é".repeat(2_500_000) });
  assert.equal(reasonOf(await seal.verify(clone(sealed))), "ok");
});

Deno.test("RecordSeal.seal() refuses a record nested 100,000 levels deep with a RangeError that names the bound", async () => {
  const seal = new RecordSeal({ key: K1 });
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < 100_000; i++) deep = { a: deep };
  await assert.rejects(seal.seal(deep), {
    name: "RangeError",
    message: "Cannot encode the value as it nests deeper than 64 levels",
  });
});

const VALID = { key: K1 } satisfies SealOptions;

Deno.test("new RecordSeal() checks its options at once, with messages that say what is wrong", () => {
  const cases: [unknown, string, string | RegExp][] = [
    [undefined, "TypeError", "Cannot seal records as options must be an object: current value is undefined"],
    [{}, "TypeError", "Cannot seal records as options.key must be { id, secret }: current value is undefined"],
    [
      { key: { id: "", secret: K1.secret } },
      "RangeError",
      'Cannot seal records as options.key.id must be 1 to 256 characters: current value is ""',
    ],
    [
      { key: { id: 7, secret: K1.secret } },
      "TypeError",
      "Cannot seal records as options.key.id must be a string: current value is 7",
    ],
    [
      { key: { id: "k1", secret: new Uint8Array(31) } },
      "RangeError",
      "Cannot seal records as options.key.secret must hold at least 32 bytes: current value is 31 bytes",
    ],
    [
      { key: { id: "k1", secret: 42 } },
      "TypeError",
      "Cannot seal records as options.key.secret must be a Uint8Array, a string or a CryptoKey: current value is number",
    ],
    [
      { ...VALID, keys: [{ id: "k2", secret: "x" }] },
      "RangeError",
      "Cannot seal records as options.keys[0].secret must hold at least 32 bytes: current value is 1 bytes",
    ],
    [
      { ...VALID, keys: [K1] },
      "RangeError",
      'Cannot seal records as two keys share an id: current value is "k1"',
    ],
    [
      { ...VALID, keys: [K2, K2] },
      "RangeError",
      'Cannot seal records as two keys share an id: current value is "k2"',
    ],
    [{ ...VALID, keys: K2 }, "TypeError", /^Cannot seal records as options.keys must be an array: current value is/],
    ...[0, -1, 1.5, NaN, Infinity, 365 * 24 * 3600 * 1000 + 1].map((ttlMs): [unknown, string, RegExp] => [
      { ...VALID, ttlMs },
      "RangeError",
      new RegExp(
        `^Cannot seal records as options.ttlMs must be a positive integer of at most 31536000000 \\(one year\\): current value is ${
          String(ttlMs)
        }$`,
      ),
    ]),
    [
      { ...VALID, ttlMs: "1000" },
      "TypeError",
      'Cannot seal records as options.ttlMs must be a positive integer of at most 31536000000 (one year): current value is "1000"',
    ],
    [{ ...VALID, now: 5 }, "TypeError", "Cannot seal records as options.now must be a function: current value is 5"],
    [
      { ...VALID, nonces: {} },
      "TypeError",
      "Cannot seal records as options.nonces must have a consume method: current value is {}",
    ],
  ];
  for (const [options, name, message] of cases) {
    assert.throws(() => new RecordSeal(options as SealOptions), { name, message }, showForAssert(options));
  }
  assert.doesNotThrow(() => new RecordSeal({ ...VALID, ttlMs: 365 * 24 * 3600 * 1000 }));
});

Deno.test("new RecordSeal() never quotes a secret in its messages", () => {
  const secret = "too-short-secret";
  assert.throws(() => new RecordSeal({ key: { id: "k1", secret } }), (error: Error) => !error.message.includes(secret));
});

Deno.test("new RecordSeal() refuses a CryptoKey that is not HMAC SHA-256 with the usages it needs", async () => {
  const verifyOnly = await crypto.subtle.importKey(
    "raw",
    new Uint8Array(32),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  assert.throws(() => new RecordSeal({ key: { id: "k1", secret: verifyOnly } }), {
    name: "TypeError",
    message:
      "Cannot seal records as options.key.secret must be an HMAC SHA-256 key with the sign and verify usages: current value is a key for HMAC SHA-256 with the verify usages",
  });
  assert.doesNotThrow(() => new RecordSeal({ key: K1, keys: [{ id: "old", secret: verifyOnly }] }));
  const sha1 = await crypto.subtle.importKey("raw", new Uint8Array(32), { name: "HMAC", hash: "SHA-1" }, false, [
    "sign",
    "verify",
  ]);
  assert.throws(() => new RecordSeal({ key: { id: "k1", secret: sha1 } }), { name: "TypeError" });
  const short = await crypto.subtle.importKey("raw", new Uint8Array(16), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
  assert.throws(() => new RecordSeal({ key: { id: "k1", secret: short } }), {
    name: "RangeError",
    message: "Cannot seal records as options.key.secret must hold at least 32 bytes: current value is 16 bytes",
  });
});

Deno.test("new RecordSeal() copies a secret's bytes, so wiping the caller's buffer changes nothing", async () => {
  const bytes = new Uint8Array(32).fill(9);
  const seal = new RecordSeal({ key: { id: "k1", secret: bytes } });
  const sealed = await seal.seal({ a: 1 });
  bytes.fill(0);
  assert.equal(reasonOf(await seal.verify(sealed)), "ok");
});

Deno.test("RecordSeal refuses to work with a clock that gives no time, rather than let every record pass", async () => {
  let now = Date.now();
  const seal = new RecordSeal({ key: K1, now: () => now });
  const sealed = await seal.seal({ a: 1 });
  now = NaN;
  await assert.rejects(seal.verify(sealed), {
    name: "TypeError",
    message: "Cannot seal records as options.now() must return a time in milliseconds: current value is NaN",
  });
  await assert.rejects(seal.seal({ a: 1 }), TypeError);
  now = Date.now();
  assert.equal(reasonOf(await seal.verify(sealed)), "ok");
});

Deno.test("RecordSeal.verify() reads a forged record of megabytes in steps: the event loop is never held 50 ms", async () => {
  const seal = new RecordSeal({ key: K1 });
  const sealed = await seal.seal(sampleRecord());
  // A valid stamp on a body padded to 2.7 MB of small objects: read in one stretch, verifying it held the loop 0.3 s.
  const padding = Array.from({ length: 100_000 }, (_, i) => ({ k: i, s: "abcdefgh" }));
  const forged = JSON.parse(JSON.stringify({ ...sealed, input: { padding } }));
  const { result, gapMs } = await largestGap(() => seal.verify(forged));
  console.log(
    `a forged 2.7 MB record: refused as ${result.ok || result.reason}, largest event-loop gap ${gapMs.toFixed(1)} ms`,
  );
  assert.equal(result.ok === false && result.reason, "bad_mac");
  assert.ok(gapMs < gapBound(), `${gapMs} ms`);
  // The same bounds hold a record that is sealed: one read in steps verifies.
  const long = await seal.seal({ input: { padding } });
  const stored = JSON.parse(JSON.stringify(long));
  // A seal of its own each time the work runs: a record verifies once.
  const verified = await largestGap(() => new RecordSeal({ key: K1 }).verify(stored));
  console.log(`a sealed 2.7 MB record: verified, largest event-loop gap ${verified.gapMs.toFixed(1)} ms`);
  assert.equal(verified.result.ok, true);
  assert.ok(verified.gapMs < gapBound(), `${verified.gapMs} ms`);
});

Deno.test("RecordSeal.verify() reads a forged record of 16 MB by the work it takes: long strings and keys to escape, and its hashing, never hold the event loop 50 ms", async () => {
  const seal = new RecordSeal({ key: K1 });
  const sealed = await seal.seal(sampleRecord());
  const MiB = 1024 * 1024;
  // Valid stamps on bodies padded to 16 MB of text. Paced by the number of values, the first two were read and
  // encoded in one stretch (0.09-0.27 s on two cores): 42 strings that escape to six times their length, or one key.
  // WebCrypto copied the text its MAC covered in one stretch: 48 MB of three-byte characters held the host 0.14 s.
  const forged: [string, unknown][] = [
    ["42 strings of 64K control characters", { ...sealed, input: Array(42).fill("\u0001".repeat(64 * 1024)) }],
    [
      "three keys of 0.9M control characters",
      { ...sealed, input: [0, 1, 2].map((i) => ({ [`${i}${"\u0001".repeat(16 * MiB / 18 - 100)}`]: 1 })) },
    ],
    ["a string of 16M characters", { ...sealed, input: "x".repeat(16 * MiB - 400) }],
    ["a string of 16M characters of three UTF-8 bytes", { ...sealed, input: "\u20ac".repeat(16 * MiB - 400) }],
  ];
  for (const [shape, record] of forged) {
    // As storage gives it back: parsed, its strings flat.
    const stored = JSON.parse(JSON.stringify(record));
    const { result, gapMs } = await largestGap(() => seal.verify(stored));
    console.log(`${shape}: largest event-loop gap ${gapMs.toFixed(1)} ms`);
    assert.equal(result.ok === false && result.reason, "bad_mac", shape);
    assert.ok(gapMs < gapBound(), `${shape}: ${gapMs} ms`);
  }
});

Deno.test("a seal's MAC is HMAC-SHA-256 over the format's domain and the SHA-256 digest of the record's canonical JSON", async () => {
  const seal = new RecordSeal({ key: K2 });
  const sealed = await seal.seal({ b: "\u20ac", a: [1, { d: null, c: true }] });
  const { mac, ...stamp } = sealed.seal;
  const sorted = Object.fromEntries(Object.entries(stamp).sort(([x], [y]) => x < y ? -1 : 1));
  const canonical = `{"a":[1,{"c":true,"d":null}],"b":"\u20ac","seal":${JSON.stringify(sorted)}}`;
  const encoder = new TextEncoder();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(canonical)));
  const key = await crypto.subtle.importKey(
    "raw",
    K2.secret as Uint8Array<ArrayBuffer>,
    {
      name: "HMAC",
      hash: "SHA-256",
    },
    false,
    ["sign"],
  );
  const expected = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, new Uint8Array([...encoder.encode("salvor-record-seal-v1\n"), ...digest])),
  );
  const base64url = btoa(String.fromCharCode(...expected)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  assert.equal(mac, base64url);
});

Deno.test("RecordSeal refuses an object of more than 50,000 members: sealing throws, verifying says malformed", async () => {
  const seal = new RecordSeal({ key: K1 });
  const wide = Object.fromEntries(Array.from({ length: 50_001 }, (_, i) => [`m${i}`, i]));
  await assert.rejects(() => seal.seal({ input: wide }), {
    name: "RangeError",
    message: /an object holds more than 50000 members: current count is 50001/,
  });
  const sealed = await seal.seal(sampleRecord());
  const result = await seal.verify({ ...sealed, input: wide });
  assert.equal(result.ok === false && result.reason, "malformed");
});

Deno.test("RecordSeal refuses an object whose keys hold more than 1 Mi characters together: a sort of them held the host", async () => {
  const seal = new RecordSeal({ key: K1 });
  // 49,000 keys sharing 300 characters before they differ, in no order: 30-36 ms to sort alone.
  const prefix = "p".repeat(300);
  const wide: Record<string, number> = {};
  for (let i = 49_000; i > 0; i--) wide[`${prefix}${(i * 7_919) % 49_000}`] = 1;
  const sealed = await seal.seal(sampleRecord());
  const stored = JSON.parse(JSON.stringify({ ...sealed, input: wide }));
  const { result, gapMs } = await largestGap(() => seal.verify(stored));
  assert.equal(result.ok === false && result.reason, "malformed");
  assert.ok(gapMs < gapBound(), `${gapMs} ms`);
  await assert.rejects(() => seal.seal({ input: wide }), {
    name: "RangeError",
    message: /an object's keys hold more than 1048576 characters together: current count is 14\d{6}$/,
  });
  // Up to the bound, keys are sealed and verified as any.
  const long = { [`a${"k".repeat(1024 * 1024 - 2)}`]: 1, b: 2 };
  assert.equal((await seal.verify(await seal.seal({ long }))).ok, true);
});

Deno.test("RecordSeal.verify() refuses a record whose nonce store took its nonce as it expired, and reads any answer but true as replayed", async () => {
  let now = 1_700_000_000_000;
  const sealer = new RecordSeal({ key: K1, ttlMs: 1_000, now: () => now });
  const sealed = await sealer.seal({ a: 1 });
  // The store's clock reaches the expiry as it answers: it forgot the nonce's first use, and takes it again.
  const forgetful = new RecordSeal({
    key: K1,
    ttlMs: 1_000,
    now: () => now,
    nonces: { consume: (_nonce, expiresAt) => (now = expiresAt, true) },
  });
  assert.equal(reasonOf(await forgetful.verify(sealed)), "expired");
  now = 1_700_000_000_000;
  const counting = new RecordSeal({ key: K1, ttlMs: 1_000, now: () => now, nonces: { consume: () => 1 as never } });
  assert.equal(reasonOf(await counting.verify(sealed)), "replayed");
});

Deno.test("MemoryNonceStore refuses a nonce that has expired by its clock: its first use may be forgotten already", () => {
  let now = 0;
  const nonces = new MemoryNonceStore({ now: () => now });
  assert.equal(nonces.consume("a", 10), true);
  now = 10;
  assert.equal(nonces.consume("a", 10), false);
  assert.equal(nonces.consume("b", 10), false);
  assert.equal(nonces.consume("b", 11), true);
});

Deno.test("RecordSeal.verify() charges the members it leaves out: an object of 50,000 undefined members shared many times is refused, not read for hours", async () => {
  const sealer = new RecordSeal({ key: K1 });
  const sealed = await sealer.seal({ a: 1 });
  const hollow: Record<string, unknown> = {};
  for (let i = 0; i < 50_000; i++) hollow[`member${i}`] = undefined;
  // As a store that keeps undefined and shared references (a structured clone) may give it back.
  const result = await sealer.verify({ ...sealed, many: Array(60).fill(hollow) });
  assert.equal(reasonOf(result), "malformed");
});
