// Sealing and verifying a parked-call record of about 1 KB: operations a
// second, median of several rounds after a warm-up. Run on its own:
//
//   deno run -A bench/seal_bench.ts

import { MemoryNonceStore, RecordSeal } from "../src/core/seal/seal.ts";

const WARM_UP_ROUNDS = 3;
const ROUNDS = 9;
const PER_ROUND = 2_000;

/** A parked call as a ToolSet emits it, padded to about 1 KB of JSON. */
function record(i: number) {
  return {
    v: 1,
    callId: `call_${i}`,
    tool: "write_file",
    version: "1.4.2",
    input: {
      path: `reports/2025/q${i % 4}/summary-${i}.md`,
      text: "Quarterly summary: revenue grew in every region; costs held flat. ".repeat(8),
      options: { mode: 420, createParents: true, encoding: "utf-8" },
    },
    reason: "Overwrite an existing file?",
    resumeSchema: { type: "object", properties: { approved: { type: "boolean" } }, required: ["approved"] },
    payload: { existingBytes: 18_231, lastModified: "2025-03-31T17:02:11Z", owner: "finance" },
    origin: "approval",
    idempotencyKey: `idem_${i}`,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const seal = new RecordSeal({
  key: { id: "k1", secret: crypto.getRandomValues(new Uint8Array(32)) },
  nonces: new MemoryNonceStore({ maxSize: 1_000_000 }),
});
const sample = await seal.seal(record(0));
const recordBytes = new TextEncoder().encode(JSON.stringify(record(0))).length;
const sealedBytes = new TextEncoder().encode(JSON.stringify(sample)).length;

const inputs = Array.from({ length: PER_ROUND }, (_, i) => record(i));
const rates = { seal: [] as number[], verify: [] as number[], refuse: [] as number[] };

for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
  let started = performance.now();
  const sealed = [];
  for (const input of inputs) sealed.push(await seal.seal(input));
  const sealMs = performance.now() - started;

  // Verified as storage gives them back: parsed from JSON text.
  const stored = sealed.map((s) => JSON.parse(JSON.stringify(s)));
  const tampered = stored.map((s) => ({ ...s, reason: "Delete everything?" }));

  started = performance.now();
  for (const s of tampered) {
    const result = await seal.verify(s);
    if (result.ok || result.reason !== "bad_mac") throw new Error("a tampered record verified");
  }
  const refuseMs = performance.now() - started;

  started = performance.now();
  for (const s of stored) {
    if (!(await seal.verify(s)).ok) throw new Error("a sealed record failed to verify");
  }
  const verifyMs = performance.now() - started;

  if (round >= WARM_UP_ROUNDS) {
    rates.seal.push(PER_ROUND / (sealMs / 1000));
    rates.verify.push(PER_ROUND / (verifyMs / 1000));
    rates.refuse.push(PER_ROUND / (refuseMs / 1000));
  }
}

const row = (name: string, values: number[]) => {
  const perSecond = median(values);
  const spread = `${Math.round(Math.min(...values)).toLocaleString("en")}–${
    Math.round(Math.max(...values)).toLocaleString("en")
  }`;
  console.log(
    `${name.padEnd(26)} ${Math.round(perSecond).toLocaleString("en").padStart(9)} /s  ${
      (1e6 / perSecond).toFixed(1).padStart(6)
    } µs/op  (range ${spread})`,
  );
};

console.log(`Deno ${Deno.version.deno}, V8 ${Deno.version.v8}`);
console.log(
  `record ${recordBytes} B of JSON, ${sealedBytes} B sealed; ${ROUNDS} rounds of ${PER_ROUND} after ${WARM_UP_ROUNDS} warm-up rounds; medians`,
);
row("seal", rates.seal);
row("verify (ok, nonce consumed)", rates.verify);
row("verify (bad_mac)", rates.refuse);
