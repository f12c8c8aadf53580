// The paced deep copy a turn's record is made with: the same data, nothing
// shared, a "__proto__" key kept as a key, and pauses as it goes.

import assert from "node:assert/strict";
import { copyPaced } from "../../../src/core/common/_paced_copy.ts";

Deno.test("copyPaced() copies plain data deeply, sharing nothing with it, pausing every few thousand values", async () => {
  const inner = { list: Array.from({ length: 20_000 }, (_, i) => i), deep: { a: [null, true, "x", undefined] } };
  const value = { inner, again: [inner], text: "t", n: 1.5, none: undefined };
  Object.defineProperty(value, "__proto__", { value: { polluted: true }, enumerable: true });
  let pauses = 0;
  const copy = await copyPaced(value, () => {
    pauses++;
    return Promise.resolve();
  });
  assert.deepEqual(copy, value);
  assert.equal(Object.getPrototypeOf(copy), Object.prototype);
  assert.ok(Object.hasOwn(copy, "__proto__"));
  assert.notEqual(copy.inner, inner);
  assert.notEqual(copy.inner.list, inner.list);
  assert.equal(copy.again[0], copy.inner);
  assert.ok(pauses >= 4, `${pauses} pauses`);
  for (const scalar of [null, 1, "s", undefined, false]) {
    assert.equal(await copyPaced(scalar, () => Promise.resolve()), scalar);
  }
});

Deno.test("copyPaced() copies an object met twice once, as structuredClone does: a cycle ends, sharing is kept", async () => {
  const shared = { n: 1 };
  const cyclic: Record<string, unknown> = { shared, again: shared };
  cyclic.self = cyclic;
  const copy = await copyPaced(cyclic, () => Promise.resolve());
  assert.deepEqual(copy, structuredClone(cyclic));
  assert.equal(copy.self, copy);
  assert.equal(copy.shared, copy.again);
  assert.notEqual(copy.shared, shared);
});
