/**
 * Diagnostics: validation problems as data a model can read and act on.
 *
 * @module
 */

/** One validation problem, the same shape whichever validator found it. */
export interface Diagnostic {
  /** A JSON Pointer (RFC 6901) into the value: `""` is the whole value. */
  readonly path: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `minimum`, ...). */
  readonly keyword: string;
  /** A sentence saying what is wrong, safe to show a model. */
  readonly message: string;
}

/** The most diagnostics a report carries; the rest are counted. */
export const MAX_DIAGNOSTICS = 16;

/** A bounded, sorted list of diagnostics with a count of those left out. */
export interface DiagnosticReport {
  /** At most {@linkcode MAX_DIAGNOSTICS}, sorted by path then keyword. */
  readonly diagnostics: readonly Diagnostic[];
  /** How many more problems were found than are listed. */
  readonly omitted: number;
}

function pointerTokens(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/");
}

const INDEX = /^(0|[1-9][0-9]*)$/;

function startsWithDigit(token: string): boolean {
  const code = token.charCodeAt(0);
  return code >= 0x30 && code <= 0x39;
}

/** Array indexes compare as numbers, so `/items/2` sorts before `/items/10`. */
function compareTokens(a: string, b: string): number {
  if (startsWithDigit(a) && startsWithDigit(b) && INDEX.test(a) && INDEX.test(b)) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A diagnostic with its path split once, so sorting does not split it at every comparison. */
interface Keyed {
  readonly diagnostic: Diagnostic;
  readonly tokens: readonly string[];
}

function compareKeyed(a: Keyed, b: Keyed): number {
  const left = a.tokens;
  const right = b.tokens;
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const order = compareTokens(left[i], right[i]);
    if (order !== 0) return order;
  }
  return left.length - right.length ||
    compareTokens(a.diagnostic.keyword, b.diagnostic.keyword) ||
    compareTokens(a.diagnostic.message, b.diagnostic.message);
}

/**
 * Sorts diagnostics by path (array indexes numerically) then keyword, drops
 * exact repeats, and keeps the first {@linkcode MAX_DIAGNOSTICS}.
 *
 * @param found The diagnostics in any order; the array is not changed.
 * @returns The bounded report.
 *
 * @example Forty problems become sixteen, sorted, and a count
 * ```ts
 * import { boundDiagnostics } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * const found = Array.from({ length: 40 }, (_, i) => ({
 *   path: `/items/${39 - i}`,
 *   keyword: "type",
 *   message: "Expected a number",
 * }));
 * const report = boundDiagnostics(found);
 * assert.equal(report.diagnostics.length, 16);
 * assert.equal(report.omitted, 24);
 * assert.equal(report.diagnostics[0].path, "/items/0");
 * assert.equal(report.diagnostics[15].path, "/items/15");
 * ```
 */
export function boundDiagnostics(
  found: readonly Diagnostic[],
): DiagnosticReport {
  const sorted = found.map((diagnostic): Keyed => ({ diagnostic, tokens: pointerTokens(diagnostic.path) }))
    .sort(compareKeyed);
  const unique = sorted.filter((item, i) => i === 0 || compareKeyed(sorted[i - 1], item) !== 0);
  return {
    diagnostics: unique.slice(0, MAX_DIAGNOSTICS).map((item) => item.diagnostic),
    omitted: Math.max(0, unique.length - MAX_DIAGNOSTICS),
  };
}
