// Case 8: what a seal adds to a parked call. Sealing the record a ToolSet
// parks (HMAC-SHA-256 over its canonical JSON), and verifying it on resume,
// against JSON.stringify of the same record, the least any host pays to
// store one.

import { defineJsonTool, MemoryNonceStore, RecordSeal, type SuspendedCall, ToolSet } from "../mod.ts";
import { check, compare, type Mode, ratioRows, type Row } from "./_harness.ts";

const STRINGIFY = "JSON.stringify(record)";
const SEAL = "ours: seal a parked record";
const VERIFY = "ours: verify a sealed record";
const KEY = { id: "bench", secret: crypto.getRandomValues(new Uint8Array(32)) };

/** A record as a sealed ToolSet parks it, for a write with a paragraph of input. */
async function parkedRecord(): Promise<SuspendedCall> {
  const write = defineJsonTool({
    name: "write_file",
    description: "Write a file.",
    inputSchema: { type: "object", properties: { path: { type: "string" }, text: { type: "string" } } },
    effects: ["fs.write"],
    run: () => ({}),
  });
  const tools = new ToolSet({ approve: () => "suspend", seal: { key: KEY } }).register(write);
  const text = "Quarterly summary: revenue grew in every region; costs held flat. ".repeat(8);
  const end = await tools.call({ id: "call_1", name: "write_file", arguments: { path: "reports/q1.md", text } });
  check(end.type === "suspended" && end.suspended.seal !== undefined, "the set parked no sealed record");
  const { seal: _, ...record } = end.suspended;
  return record;
}

/**
 * Runs case 8.
 *
 * @param mode Full or smoke.
 * @returns The rows.
 */
export async function sealedRecords(mode: Mode): Promise<Row[]> {
  const record = await parkedRecord();
  // Verifying does not use up a nonce here: a ToolSet does that apart, last.
  const sealer = new RecordSeal({ key: KEY, nonces: { consume: () => true } });
  const sealed = await sealer.seal(record);
  check((await sealer.verify(sealed)).ok, "a sealed record did not verify");
  check(!(await sealer.verify({ ...sealed, tool: "rm" })).ok, "a changed record verified");
  check((await new RecordSeal({ key: KEY, nonces: new MemoryNonceStore() }).verify(sealed)).ok, "a fresh nonce failed");
  const stats = await compare([
    { name: STRINGIFY, run: () => JSON.stringify(record) },
    { name: SEAL, run: () => sealer.seal(record) },
    { name: VERIFY, run: () => sealer.verify(sealed) },
  ], mode);
  const kb = (new TextEncoder().encode(JSON.stringify(sealed)).length / 1024).toFixed(1);
  return ratioRows(`8. Sealed records, a ${kb} KB record`, [STRINGIFY, SEAL, VERIFY], stats, "ns", STRINGIFY);
}
