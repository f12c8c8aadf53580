// The handle of a module loaded on first need: it loads once, hands over what
// the module provides (at once, once loaded), and leaves no async context of
// the call that loaded it behind. Deno keeps the AsyncLocalStorage store an
// `import()` is called in for the tasks its runtime starts afterwards (a
// server's next request, the next test), so the handle must not call
// `import()` in the caller's store.

import assert from "node:assert/strict";
import { AsyncLocalStorage } from "node:async_hooks";
import { apart } from "../../../src/core/common/_apart.ts";

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
