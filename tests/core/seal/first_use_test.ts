// The sealing part loads apart, on the first seal or verify. A seal called
// before it has loaded reads the record as every later call does, at the
// call: a change the caller makes while the part loads is not sealed, and
// what a later call refuses is refused. This file must be the first to seal
// in its module graph, so it holds this test alone.

import assert from "node:assert/strict";
import { RecordSeal } from "../../../src/core/seal/seal.ts";
import { SEALING } from "../../../src/core/seal/_apart.ts";

class Ticket {
  path = "a";
}

interface Parked {
  tool: string;
  input: { path: string };
  skipped?: unknown;
  note?: string;
}

/** Records the canonical text takes though a JSON copy refuses them: with a member left out, with a lone surrogate. */
const takenRecords: readonly (() => Parked)[] = [
  () => ({ tool: "write_file", input: { path: "notes.txt" }, skipped: undefined }),
  () => ({ tool: "write_file", input: { path: "notes.txt" }, note: "\ud800" }),
];

/** A lone surrogate read before a class instance. */
function ticketed(): Record<string, unknown> {
  return { note: "\ud800", input: new Ticket() };
}

/** A sealed record without its stamp. */
function unstamped({ seal: _, ...record }: { readonly seal: unknown }): object {
  return record;
}

/** What a seal settles to: the record without its stamp, or the error's name and message. */
function outcome(sealing: Promise<{ readonly seal: unknown }>): Promise<unknown> {
  return sealing.then(unstamped, (error: Error) => `${error.name}: ${error.message}`);
}

Deno.test("RecordSeal.seal() called before the sealing part has loaded seals or refuses the record as it was at the call, as a later seal does", async () => {
  assert.equal(SEALING.loaded, undefined, "the sealing part has not loaded yet");
  const seal = new RecordSeal({ key: { id: "k1", secret: "0123456789abcdef0123456789abcdef" } });
  const records = takenRecords.map((make) => make());
  const sealings = records.map((record) => seal.seal(record));
  const refusing = outcome(seal.seal(ticketed()));
  for (const record of records) {
    record.tool = "remove";
    record.input.path = "/etc/passwd";
    record.skipped = "added";
  }
  assert.equal(SEALING.loaded, undefined, "every seal was called before the part loaded");

  const sealed = await Promise.all(sealings);
  assert.deepEqual(sealed.map(unstamped), [
    { tool: "write_file", input: { path: "notes.txt" } },
    { tool: "write_file", input: { path: "notes.txt" }, note: "\ud800" },
  ]);
  for (const one of sealed) assert.equal((await seal.verify(one)).ok, true);
  assert.equal(
    await refusing,
    "TypeError: Cannot encode the value as JSON as it holds an object that is neither a plain object nor an array at /input",
  );

  // Once the part has loaded, the same records are sealed and refused alike.
  assert.notEqual(SEALING.loaded, undefined);
  for (const [i, make] of takenRecords.entries()) {
    assert.deepEqual(unstamped(sealed[i]), await outcome(seal.seal(make())));
  }
  assert.equal(await refusing, await outcome(seal.seal(ticketed())));
});
