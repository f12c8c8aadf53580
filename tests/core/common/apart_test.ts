// The handle of a module loaded on first need: it loads once, hands over what
// the module provides (at once, once loaded), leaves no async context of the
// call that loaded it behind, and a failed load reaches only whoever awaits
// it. Deno keeps the AsyncLocalStorage store an
// `import()` is called in for the tasks its runtime starts afterwards (a
// server's next request, the next test), so the handle must not call
// `import()` in the caller's store.

import assert from "node:assert/strict";
import { AsyncLocalStorage } from "node:async_hooks";
import { apart, joined, present } from "../../../src/core/common/_apart.ts";

const store = new AsyncLocalStorage<string>();
let imports = 0;
// A module no other test loads, so its first need is a real first load.
const part = apart(() => {
  imports++;
  return import("data:text/javascript,export const answer = 42;").then((module) => module.answer as number);
});

Deno.test("apart() loads once on first need, inside the caller's store, and then hands over at once", async () => {
  assert.equal(part.loaded, undefined);
  const seen = await store.run("request 1", () => part.use((answer) => [answer, store.getStore()]));
  assert.deepEqual(seen, [42, "request 1"]);
  assert.equal(part.loaded, 42);
  assert.equal(part.use((answer) => answer + 1), 43);
  await part.load();
  assert.equal(imports, 1);
});

Deno.test("apart() leaves the store of the call that first loaded it out of what the runtime starts next", () => {
  // Deno starts each test from its own loop, as it starts a server's next request.
  assert.equal(store.getStore(), undefined);
});

/** The rejections left unhandled while `work` runs, kept from the host. */
async function unhandledRejectionsOf(work: () => Promise<void>): Promise<unknown[]> {
  const unhandled: unknown[] = [];
  const listener = (event: PromiseRejectionEvent) => {
    unhandled.push(event.reason);
    event.preventDefault();
  };
  globalThis.addEventListener("unhandledrejection", listener);
  try {
    await work();
  } finally {
    globalThis.removeEventListener("unhandledrejection", listener);
  }
  return unhandled;
}

Deno.test("a failed load reaches whoever awaits it, never the host as an unhandled rejection", async () => {
  const unhandled = await unhandledRejectionsOf(async () => {
    const missing = () => Promise.reject(new Error("the chunk is missing"));
    // Started and left, as a schema compiled while its validator loads leaves them.
    const left = apart<number>(missing);
    void left.load();
    void joined(apart<number>(missing), present("here")).load();
    // Two turns of the event loop, for an unhandled rejection to be reported.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Whoever awaits one gets the failure.
    await assert.rejects(left.load(), /the chunk is missing/);
    const both = joined(apart<number>(missing), present("here"));
    await assert.rejects(both.load(), /the chunk is missing/);
    assert.equal(both.loaded, undefined);
  });
  assert.deepEqual(unhandled, []);
});

Deno.test("present() has loaded; joined() has loaded once both have, and hands both over", async () => {
  const now = present(1);
  assert.equal(now.loaded, 1);
  assert.equal(now.use((one) => one + 1), 2);
  await now.load();
  const later = apart(() => Promise.resolve("two"));
  const both = joined(now, later);
  assert.equal(both.loaded, undefined);
  assert.deepEqual(await both.use(([one, two]) => `${one} ${two}`), "1 two");
  assert.deepEqual(both.loaded, [1, "two"]);
  assert.equal(both.load(), both.load());
});

Deno.test("joined() with needs loads the second only when the first, once loaded, asks for it, and asks once", async () => {
  let asked = 0;
  let secondLoads = 0;
  const second = () => apart(() => (secondLoads++, Promise.resolve("large")));
  const unneeded = joined(apart(() => Promise.resolve(1)), second(), () => (asked++, false));
  await unneeded.load();
  assert.deepEqual(unneeded.loaded, [1, undefined]);
  assert.deepEqual(unneeded.loaded, [1, undefined]);
  assert.equal(secondLoads, 0);
  const needed = joined(apart(() => Promise.resolve(2)), second(), () => (asked++, true));
  assert.deepEqual(await needed.use((both) => both), [2, "large"]);
  assert.equal(secondLoads, 1);
  assert.equal(asked, 2);
});

Deno.test("joined() rejects when its second fails, with the first loaded, and never as an unhandled rejection", async () => {
  const unhandled = await unhandledRejectionsOf(async () => {
    const missing = () => Promise.reject(new Error("the second chunk is missing"));
    // The second fails while the first still loads: it started at once, beside it.
    const slow = apart(() => new Promise<number>((resolve) => setTimeout(() => resolve(1), 10)));
    const both = joined(slow, apart<string>(missing));
    await assert.rejects(both.load(), /the second chunk is missing/);
    assert.equal(both.loaded, undefined);
    const asked = joined(apart(() => Promise.resolve(1)), apart<string>(missing), () => true);
    await assert.rejects(asked.load(), /the second chunk is missing/);
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
  assert.deepEqual(unhandled, []);
});
