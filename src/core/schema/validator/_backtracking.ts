// How long a backtracking engine (the built-in RegExp) can take on one test
// of a pattern, for the patterns where that is easy to bound: anchored at the
// start, a chain of single-character atoms, at most one of them unbounded.
// Most patterns of real schemas are such a chain (`^\d{4}-\d{2}-\d{2}$`,
// `^[a-z][a-z0-9_-]{1,31}$`, `^[A-Z][A-Z0-9]{1,9}-\d+$`); none of them can
// backtrack catastrophically. Such a pattern runs on the built-in RegExp
// whatever tests it: for the host's own schemas and under the linear-time
// engine, and under the engine that runs no other pattern, for where re2js
// is not loaded (the core's own untrusted schemas: a parked call's record
// that is not sealed).

import type { CompiledPattern, PatternCost, PatternEngine } from "./patterns.ts";

/** The most steps a pattern may take on one test, apart from its per-character steps: about a microsecond. */
export const MAX_BACKTRACKING_STEPS = 1024;

/** The most steps a pattern may take for each character of the text: RE2 takes tens. */
export const MAX_STEPS_PER_CHARACTER = 64;

/** A bound on the steps of one test of a text of `n` characters: `perCharacter * n + fixed`. */
export interface BacktrackingBound {
  readonly perCharacter: number;
  readonly fixed: number;
}

/** One atom of the chain: how many repetition counts it can try, and the most characters it takes (Infinity: any). */
interface Atom {
  readonly choices: number;
  readonly longest: number;
}

const CLASS_ESCAPES = new Set(["d", "D", "s", "S", "w", "W", "f", "n", "r", "t", "v"]);
const SYNTAX_CHARACTERS = new Set([..."^$\\.*+?()[]{}|/"]);
const HEX = /^[0-9a-fA-F]+$/;

/** The index after the single-character escape at `source[i]` (just after the backslash), or -1. */
function escapeEnd(source: string, i: number): number {
  const c = source[i];
  if (CLASS_ESCAPES.has(c) || SYNTAX_CHARACTERS.has(c)) return i + 1;
  if (c === "0") return /[0-9]/.test(source[i + 1] ?? "") ? -1 : i + 1;
  if (c === "c") return /[a-zA-Z]/.test(source[i + 1] ?? "") ? i + 2 : -1;
  if (c === "x") return HEX.test(source.slice(i + 1, i + 3)) && i + 3 <= source.length ? i + 3 : -1;
  if (c === "u" && source[i + 1] === "{") {
    const end = source.indexOf("}", i);
    return end !== -1 && HEX.test(source.slice(i + 2, end)) ? end + 1 : -1;
  }
  if (c === "u") return source.length >= i + 5 && HEX.test(source.slice(i + 1, i + 5)) ? i + 5 : -1;
  if (c === "p" || c === "P") {
    const end = source.indexOf("}", i);
    return source[i + 1] === "{" && end !== -1 ? end + 1 : -1;
  }
  // \b and \B (assertions), \1-\9 and \k (backreferences), and anything else: not a single character.
  return -1;
}

/** The index after the class that opens at `source[i]`: the first `]` not escaped closes it (`[]` included). */
function classEnd(source: string, i: number): number {
  let j = i + 1;
  if (source[j] === "^") j++;
  for (; j < source.length; j++) {
    if (source[j] === "\\") j++;
    else if (source[j] === "]") return j + 1;
  }
  return -1;
}

/** The index after the one-character atom at `source[i]`, or -1 when none starts there. */
function atomEnd(source: string, i: number): number {
  const c = source[i];
  if (c === "\\") return escapeEnd(source, i + 1);
  if (c === "[") return classEnd(source, i);
  if (c === ".") return i + 1;
  if (SYNTAX_CHARACTERS.has(c) && c !== "/") return -1;
  // A surrogate pair is one code point, as the `u` flag reads it.
  const code = source.charCodeAt(i);
  return code >= 0xd800 && code <= 0xdbff && i + 1 < source.length ? i + 2 : i + 1;
}

/** Reads the quantifier at `source[i]`: its bounds (`max` Infinity when unbounded) and the index after it; none is `{1}`. */
function quantifier(source: string, i: number): [min: number, max: number, end: number] | undefined {
  let min = 1;
  let max = 1;
  let end = i;
  if (source[i] === "?") [min, max, end] = [0, 1, i + 1];
  else if (source[i] === "*") [min, max, end] = [0, Infinity, i + 1];
  else if (source[i] === "+") [min, max, end] = [1, Infinity, i + 1];
  else if (source[i] === "{") {
    const match = /^\{(\d{1,6})(,(\d{1,6})?)?\}/.exec(source.slice(i));
    if (!match) return undefined;
    min = Number(match[1]);
    max = match[2] === undefined ? min : match[3] === undefined ? Infinity : Number(match[3]);
    end = i + match[0].length;
  }
  // A lazy quantifier tries the same counts in the other order.
  if (end > i && source[end] === "?") end++;
  return [min, max, end];
}

/**
 * Bounds the steps a backtracking engine takes on one test of a pattern, for
 * a text of any length. An atom that can repeat `choices` times, each count
 * taking at most `longest` characters, tries each count with the rest of the
 * chain behind it: the rest's bound is multiplied by `choices`, and each try
 * is charged `longest` steps again. An unbounded atom takes up to all `n`
 * characters once and gives them back one at a time, trying the rest after
 * each: `n` plus `n + 1` times the rest, which stays linear only when the
 * rest is bounded by a constant, so a second unbounded atom has no bound. An
 * anchored pattern fails at once at every other start. A pattern outside that
 * shape (a group, an alternation, no start anchor, an assertion other than
 * `^` first and `$` last, a lookaround or a backreference) has no bound.
 *
 * @param source The pattern, valid with the `u` flag.
 * @returns The bound, within {@linkcode MAX_STEPS_PER_CHARACTER} and
 * {@linkcode MAX_BACKTRACKING_STEPS}; `undefined` when there is none that low.
 */
export function backtrackingBound(source: string): BacktrackingBound | undefined {
  if (source[0] !== "^") return undefined;
  const atoms: Atom[] = [];
  for (let i = 1; i < source.length;) {
    if (source[i] === "$" && i === source.length - 1) break;
    const end = atomEnd(source, i);
    if (end === -1) return undefined;
    const quantified = quantifier(source, end);
    if (quantified === undefined) return undefined;
    const [min, max, next] = quantified;
    if (max < min) return undefined;
    atoms.push({ choices: max - min + 1, longest: max });
    i = next;
  }
  let perCharacter = 0;
  let fixed = 1;
  for (let j = atoms.length - 1; j >= 0; j--) {
    const { choices, longest } = atoms[j];
    if (longest === Infinity) {
      if (perCharacter > 0) return undefined;
      perCharacter = 1 + fixed;
    } else {
      perCharacter *= choices;
      fixed = choices * (longest + fixed);
    }
    if (perCharacter > MAX_STEPS_PER_CHARACTER || fixed > MAX_BACKTRACKING_STEPS) return undefined;
  }
  return { perCharacter, fixed };
}

/**
 * Whether any of a schema's patterns could backtrack for long on the built-in RegExp, so that its engine needs re2js.
 *
 * @param sources The schema's patterns.
 * @returns Whether one has no backtracking bound.
 */
export function needsRe2(sources: readonly string[]): boolean {
  return sources.some((source) => backtrackingBound(source) === undefined);
}

/**
 * A pattern whose backtracking {@linkcode backtrackingBound} bounds, on the built-in RegExp and charged at that
 * bound; `undefined` for any other pattern.
 *
 * @param source The pattern, valid with the `u` flag.
 * @returns The compiled pattern, or `undefined`.
 */
export function boundedPattern(source: string): CompiledPattern | undefined {
  const bound = backtrackingBound(source);
  if (bound === undefined) return undefined;
  // A backtracking step of the built-in RegExp takes about half a nanosecond: 32 count as one validator step.
  const cost: PatternCost = { perCharacter: bound.perCharacter / 32, fixed: bound.fixed / 32 };
  // The RegExp is left as it was built: one with a property of its own loses the engine's fast path.
  const regexp = new RegExp(source, "u");
  return { test: (text) => regexp.test(text), cost };
}

/**
 * The engine for a schema from outside where the linear-time engine is not loaded: a pattern whose backtracking is
 * bounded runs on the built-in RegExp, and any other is refused, so the schema is refused as `unsupported`.
 */
export const boundedPatterns: PatternEngine = Object.freeze({
  compile(source: string): CompiledPattern {
    const pattern = boundedPattern(source);
    if (pattern !== undefined) return pattern;
    throw new Error(
      "it could backtrack for long, and a schema from outside runs such a pattern only on the linear-time engine, which this schema was not given",
    );
  },
});
