// The sealing part loads apart, on the first seal or verify. What that first
// call seals is the record as it was when it was called, as every later call
// does: a change the caller makes while the part loads is not sealed. This
// file must be the first to seal in its module graph, so it holds this test
// alone.

import assert from "node:assert/strict";
import { RecordSeal } from "../../../src/core/seal/seal.ts";
import { SEALING } from "../../../src/core/seal/_apart.ts";

Deno.test("RecordSeal.seal() seals a record as it was when called, though the sealing part loads first", async () => {
  assert.equal(SEALING.loaded, undefined, "the sealing part has not loaded yet");
  const seal = new RecordSeal({ key: { id: "k1", secret: "0123456789abcdef0123456789abcdef" } });
  // With a lone surrogate in it too, which the canonical encoding takes though a JSON copy refuses it.
  const record = { tool: "write_file", input: { path: "notes.txt" }, note: "\ud800" };
  const sealing = seal.seal(record);
  record.tool = "remove";
  record.input.path = "/etc/passwd";
  const sealed = await sealing;
  assert.equal(sealed.tool, "write_file");
  assert.deepEqual(sealed.input, { path: "notes.txt" });
  assert.equal((await seal.verify(sealed)).ok, true);
  // A non-plain object is refused as before, whether the part has loaded or not.
  class Ticket {
    path = "a";
  }
  await assert.rejects(() => seal.seal({ input: new Ticket() }), TypeError);
});
