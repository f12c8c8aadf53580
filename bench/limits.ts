// Case 3: the size and depth check every value crossing the boundary gets,
// on a tiny value, on a 64 KiB one (well under the limit) and on one just
// under the 256 KiB limit (so no bound settles it early and every string and
// number is measured), against JSON.stringify(value).length, the check a
// user would otherwise write.

import { DEFAULT_LIMITS } from "../mod.ts";
import { checkJsonValue } from "../dyn.ts";
import { check, compare, type Mode, ratioRows, type Row } from "./_harness.ts";

const STRINGIFY = "JSON.stringify(value).length";
const OURS = "ours: checkJsonValue";

const TINY = { path: "notes/today.md", line: 3 };

/** Records of mixed JSON until the encoding is just under `limit` bytes. */
function recordsUpTo(limit: number): unknown[] {
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
    if (bytes + size > limit) return records;
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
  const big = recordsUpTo(DEFAULT_LIMITS.maxBytes - 64);
  const medium = recordsUpTo(64 * 1024);
  const kib = (value: unknown) => `${(new TextEncoder().encode(JSON.stringify(value)).length / 1024).toFixed(0)} KiB`;
  check(checkJsonValue(TINY) === undefined, "the tiny value was refused");
  check(
    checkJsonValue(big) === undefined && checkJsonValue(medium) === undefined,
    "a value under the limit was refused",
  );
  check(checkJsonValue([...big, ...big.slice(0, 200)]) !== undefined, "a value over the limit passed");
  const rows: Row[] = [];
  const cases = [["tiny value", TINY], [`${kib(medium)} value`, medium], [
    `${kib(big)} value, at the limit`,
    big,
  ]] as const;
  for (const [label, value] of cases) {
    const stats = await compare([
      { name: STRINGIFY, run: () => JSON.stringify(value).length },
      { name: OURS, run: () => checkJsonValue(value) },
    ], mode);
    const target = value === TINY
      ? () => ({ text: "< 1 µs", met: stats[1].median < 1000 })
      : value === big
      ? (ratio: number) => ({ text: "cheaper than JSON.stringify", met: ratio < 1 })
      : undefined;
    rows.push(
      ...ratioRows(`3. Limits, ${label}`, [STRINGIFY, OURS], stats, "ns", STRINGIFY, target ? { [OURS]: target } : {}),
    );
  }
  return rows;
}
