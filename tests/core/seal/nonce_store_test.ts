// The in-memory nonce store: single use, bounded, forgetting nonces only
// once they have expired.

import assert from "node:assert/strict";
import { MemoryNonceStore } from "../../../src/core/seal/nonce_store.ts";

Deno.test("MemoryNonceStore.consume() is true once per nonce", () => {
  const nonces = new MemoryNonceStore();
  assert.equal(nonces.consume("a", Date.now() + 60_000), true);
  assert.equal(nonces.consume("b", Date.now() + 60_000), true);
  assert.equal(nonces.consume("a", Date.now() + 60_000), false);
  assert.equal(nonces.size, 2);
});

Deno.test("MemoryNonceStore holds 100,000 nonces by default, then fails closed until some expire", () => {
  let now = 0;
  const nonces = new MemoryNonceStore({ now: () => now });
  assert.equal(nonces.maxSize, 100_000);
  for (let i = 0; i < 100_000; i++) assert.equal(nonces.consume(`n${i}`, 1_000), true);
  assert.equal(nonces.consume("one more", 1_000), false);
  assert.equal(nonces.consume("n0", 1_000), false);
  assert.equal(nonces.size, 100_000);
  now = 1_000;
  assert.equal(nonces.consume("one more", 2_000), true);
  assert.equal(nonces.size, 1);
});

Deno.test("MemoryNonceStore never forgets a nonce before its expiresAt", () => {
  let now = 0;
  const nonces = new MemoryNonceStore({ now: () => now });
  nonces.consume("a", 100);
  now = 99;
  assert.equal(nonces.consume("a", 100), false);
  now = 100;
  // Expired, it may be forgotten; this store forgets it.
  assert.equal(nonces.consume("a", 200), true);
});

Deno.test("MemoryNonceStore drops expired nonces as time passes, keeping its size bounded", () => {
  let now = 0;
  const nonces = new MemoryNonceStore({ now: () => now, maxSize: 1_000 });
  // A steady flow: 10 nonces a tick, each living 50 ticks, for far more nonces than maxSize.
  for (let tick = 0; tick < 2_000; tick++) {
    now = tick;
    for (let i = 0; i < 10; i++) assert.equal(nonces.consume(`${tick}.${i}`, tick + 50), true);
    assert.ok(nonces.size <= 510, `size ${nonces.size} at tick ${tick}`);
  }
  // The ones still live are still refused.
  assert.equal(nonces.consume("1999.0", 2_049), false);
  assert.equal(nonces.consume("1950.0", 2_000), false);
});

Deno.test("MemoryNonceStore keeps a nonce consumed after a longer-lived one until that one expires too", () => {
  let now = 0;
  const nonces = new MemoryNonceStore({ now: () => now });
  nonces.consume("long", 1_000);
  nonces.consume("short", 10);
  now = 500;
  nonces.consume("probe", 2_000);
  assert.equal(nonces.size, 3);
  now = 1_000;
  nonces.consume("probe2", 2_000);
  assert.deepEqual(nonces.size, 2);
  assert.equal(nonces.consume("probe", 2_000), false);
});

Deno.test("MemoryNonceStore checks its options and arguments", () => {
  for (const maxSize of [0, -1, 1.5, NaN, Infinity]) {
    assert.throws(() => new MemoryNonceStore({ maxSize }), {
      name: "RangeError",
      message: `Cannot keep nonces as maxSize must be a positive integer: current value is ${maxSize}`,
    });
  }
  assert.throws(() => new MemoryNonceStore({ now: 1 as unknown as () => number }), TypeError);
  const nonces = new MemoryNonceStore();
  assert.throws(() => nonces.consume(1 as unknown as string, 1), TypeError);
  assert.throws(() => nonces.consume("a", NaN), {
    name: "TypeError",
    message: "Cannot consume a nonce as its expiresAt must be a finite number: current value is NaN",
  });
});

Deno.test("MemoryNonceStore refuses to work with a clock that gives no time, rather than forget every nonce", () => {
  let now = 0;
  const nonces = new MemoryNonceStore({ now: () => now });
  nonces.consume("a", 100);
  now = NaN;
  assert.throws(() => nonces.consume("a", 100), {
    name: "TypeError",
    message: "Cannot consume a nonce as now() must return a time: current value is NaN",
  });
  now = Infinity;
  assert.throws(() => nonces.consume("a", 100), /now\(\) must return a time: current value is Infinity/);
  now = 50;
  assert.equal(nonces.consume("a", 100), false);
});
