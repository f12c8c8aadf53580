// Renders the results as one Markdown table.

import type { Row, Unit } from "./_harness.ts";

function formatValue(value: number, unit: Unit): string {
  if (!Number.isFinite(value)) return "n/a";
  switch (unit) {
    case "ns":
      if (value < 1_000) return `${value.toFixed(value < 10 ? 2 : 0)} ns`;
      if (value < 1_000_000) return `${(value / 1_000).toFixed(2)} µs`;
      return `${(value / 1_000_000).toFixed(2)} ms`;
    case "ms":
      return `${value.toFixed(value < 10 ? 2 : 1)} ms`;
    case "B":
      return value < 10_000 ? `${Math.round(value)} B` : `${(value / 1024).toFixed(1)} KiB`;
    case "KB":
      return `${value.toFixed(1)} KB`;
  }
}

function formatRatio(row: Row): string {
  if (row.ratio === undefined || !Number.isFinite(row.ratio)) return "";
  return `${row.ratio.toFixed(2)}×`;
}

/**
 * Renders rows as a Markdown table: one line a contender, grouped by case.
 * A smoke run's timings mean nothing, so its targets are named but not judged.
 *
 * @param rows The rows, in case order.
 * @param smoke Whether the rows come from a smoke run.
 * @returns The table.
 */
export function renderTable(rows: readonly Row[], smoke: boolean): string {
  const header = ["case", "contender", "median", "p75", "p99", "n", "ratio", "target"];
  const lines = [
    `| ${header.join(" | ")} |`,
    `| ${header.map((h) => (["median", "p75", "p99", "n", "ratio"].includes(h) ? "---:" : "---")).join(" | ")} |`,
  ];
  let group = "";
  for (const row of rows) {
    const verdict = smoke ? "not judged in a smoke run" : row.target?.met ? "met" : "**missed**";
    const target = row.target ? `${verdict}: ${row.target.text}` : "";
    lines.push(
      `| ${row.group === group ? "" : row.group} | ${row.name} | ${formatValue(row.stats.median, row.unit)} | ${
        formatValue(row.stats.p75, row.unit)
      } | ${formatValue(row.stats.p99, row.unit)} | ${row.stats.samples} | ${formatRatio(row)} | ${target} |`,
    );
    group = row.group;
  }
  return lines.join("\n");
}
