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

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Whether `text[start, end)` is an array index: `0`, or digits not starting with `0`. */
function isIndex(text: string, start: number, end: number): boolean {
  if (end === start || (text.charCodeAt(start) === 0x30 && end - start > 1)) return false;
  for (let i = start; i < end; i++) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
}

/**
 * Compares `a[aStart, aEnd)` with `b[bStart, bEnd)` in place, so sorting
 * builds no substrings. Array indexes compare as numbers, so `/items/2`
 * sorts before `/items/10`: with no leading zeros, the shorter is smaller.
 */
function compareSpans(a: string, aStart: number, aEnd: number, b: string, bStart: number, bEnd: number): number {
  const aLength = aEnd - aStart;
  const bLength = bEnd - bStart;
  if (
    aLength !== bLength && isDigit(a.charCodeAt(aStart)) && isDigit(b.charCodeAt(bStart)) &&
    isIndex(a, aStart, aEnd) && isIndex(b, bStart, bEnd)
  ) {
    return aLength - bLength;
  }
  for (let i = 0; i < aLength && i < bLength; i++) {
    const order = a.charCodeAt(aStart + i) - b.charCodeAt(bStart + i);
    if (order !== 0) return order;
  }
  return aLength - bLength;
}

function compareTokens(a: string, b: string): number {
  return a === b ? 0 : compareSpans(a, 0, a.length, b, 0, b.length);
}

/** Compares two JSON Pointers token by token; a parent sorts before its children. */
function comparePaths(a: string, b: string): number {
  if (a === b) return 0;
  // "" is the whole value: no tokens, so it sorts first.
  if (a === "") return -1;
  if (b === "") return 1;
  let aStart = 1;
  let bStart = 1;
  while (true) {
    const aSlash = a.indexOf("/", aStart);
    const bSlash = b.indexOf("/", bStart);
    const aEnd = aSlash === -1 ? a.length : aSlash;
    const bEnd = bSlash === -1 ? b.length : bSlash;
    const order = compareSpans(a, aStart, aEnd, b, bStart, bEnd);
    if (order !== 0) return order;
    if (aSlash === -1 || bSlash === -1) return aSlash === bSlash ? 0 : aSlash === -1 ? -1 : 1;
    aStart = aSlash + 1;
    bStart = bSlash + 1;
  }
}

function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return comparePaths(a.path, b.path) || compareTokens(a.keyword, b.keyword) || compareTokens(a.message, b.message);
}

function sameDiagnostic(a: Diagnostic, b: Diagnostic): boolean {
  return a.path === b.path && a.keyword === b.keyword && a.message === b.message;
}

/**
 * A sorted copy of a few diagnostics, as `sort` would sort them (stably):
 * for a handful, the built-in sort's own cost is most of the time spent.
 */
function insertionSorted(found: readonly Diagnostic[]): Diagnostic[] {
  const sorted = found.slice();
  for (let i = 1; i < sorted.length; i++) {
    const item = sorted[i];
    let j = i - 1;
    for (; j >= 0 && compareDiagnostics(sorted[j], item) > 0; j--) sorted[j + 1] = sorted[j];
    sorted[j + 1] = item;
  }
  return sorted;
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
 * import { boundDiagnostics } from "@salvor/tools/dyn";
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
  // Most reports hold one diagnostic: nothing to sort or drop.
  if (found.length === 1) return { diagnostics: [found[0]], omitted: 0 };
  const sorted = found.length <= MAX_DIAGNOSTICS ? insertionSorted(found) : found.slice().sort(compareDiagnostics);
  const kept: Diagnostic[] = [];
  let unique = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (i > 0 && sameDiagnostic(sorted[i - 1], sorted[i])) continue;
    unique++;
    if (kept.length < MAX_DIAGNOSTICS) kept.push(sorted[i]);
  }
  return { diagnostics: kept, omitted: unique - kept.length };
}
