// Case 3: the size and depth check every value crossing the boundary gets,
// on a tiny value and on one just under the 256 KiB limit (so the walk
// cannot stop early), against JSON.stringify(value).length, the check a
// user would otherwise write.

import { checkJsonValue, DEFAULT_LIMITS } from "../mod.ts";
import { check, compare, type Mode, ratioRows, type Row } from "./_harness.ts";

const STRINGIFY = "JSON.stringify(value).length";
const OURS = "ours: checkJsonValue";

const TINY = { path: "notes/today.md", line: 3 };

/** Records of mixed JSON until the encoding is just under the byte limit. */
function nearLimit(): unknown[] {
  const records: unknown[] = [];
  const encoder = new TextEncoder();
  let bytes = 2;
  for (let i = 0;; i++) {
    const record = {
      id: i,
      name: `item-${i}`,
      note: i % 7 === 0 ? `Prüfung №${i} — “quoted”\n` : `plain note number ${i}`,
      score: i / 7,
      active: i % 2 === 0,
      tags: ["alpha", "beta", String(i % 13)],
      owner: i % 5 === 0 ? null : { id: i % 97, team: "core" },
    };
    const size = encoder.encode(JSON.stringify(record)).length + 1;
    if (bytes + size > DEFAULT_LIMITS.maxBytes - 64) return records;
    records.push(record);
    bytes += size;
  }
}

/**
 * Runs case 3.
 *
 * @param mode Full or smoke.
 * @returns The rows.
 */
export async function limits(mode: Mode): Promise<Row[]> {
  const big = nearLimit();
  const bigBytes = new TextEncoder().encode(JSON.stringify(big)).length;
  check(checkJsonValue(TINY) === undefined, "the tiny value was refused");
  check(checkJsonValue(big) === undefined, `the ${bigBytes}-byte value was refused`);
  check(checkJsonValue([...big, ...big.slice(0, 200)]) !== undefined, "a value over the limit passed");
  const rows: Row[] = [];
  for (const [label, value] of [["tiny value", TINY], [`${(bigBytes / 1024).toFixed(0)} KiB value`, big]] as const) {
    const stats = await compare([
      { name: STRINGIFY, run: () => JSON.stringify(value).length },
      { name: OURS, run: () => checkJsonValue(value) },
    ], mode);
    const tiny = value === TINY;
    rows.push(...ratioRows(`3. Limits, ${label}`, [STRINGIFY, OURS], stats, "ns", STRINGIFY, {
      [OURS]: (ratio) =>
        tiny
          ? { text: "< 1 µs", met: stats[1].median < 1000 }
          : { text: "cheaper than JSON.stringify", met: ratio < 1 },
    }));
  }
  return rows;
}
