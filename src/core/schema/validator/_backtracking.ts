// How long a backtracking engine (the built-in RegExp) can take on one test
// of a pattern, for the patterns where that is easy to bound: anchored at the
// start, a chain of single-character atoms, every quantifier bounded. Most
// patterns of real schemas are such a chain (`^\d{4}-\d{2}-\d{2}$`,
// `^[a-z][a-z0-9_-]{1,31}$`); none of them can backtrack catastrophically.

/** The most steps a pattern may take on one test to run on the built-in RegExp: about a microsecond. */
export const MAX_BACKTRACKING_STEPS = 1024;

/** One atom of the chain: how many repetition counts it can try, and the most characters it takes. */
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

/** Reads the quantifier at `source[i]`: its bounds and the index after it; none is `{1, 1}`; unbounded is undefined. */
function quantifier(source: string, i: number): [min: number, max: number, end: number] | undefined {
  let min = 1;
  let max = 1;
  let end = i;
  if (source[i] === "?") [min, max, end] = [0, 1, i + 1];
  else if (source[i] === "*" || source[i] === "+") return undefined;
  else if (source[i] === "{") {
    const match = /^\{(\d{1,6})(,(\d{1,6})?)?\}/.exec(source.slice(i));
    if (!match || (match[2] !== undefined && match[3] === undefined)) return undefined;
    min = Number(match[1]);
    max = match[3] === undefined ? min : Number(match[3]);
    end = i + match[0].length;
  }
  // A lazy quantifier tries the same counts in the other order.
  if (end > i && source[end] === "?") end++;
  return [min, max, end];
}

/**
 * Bounds the steps a backtracking engine takes on one test of a pattern, of
 * any text: a greedy or lazy atom of `choices` counts, each taking at most
 * `longest` characters, tries each count with the rest of the chain behind
 * it, so the rest's bound is multiplied by `choices`; an anchored pattern
 * fails at once at every other start. A pattern outside that shape (a group,
 * an alternation, an unbounded quantifier, no start anchor, a lookaround or a
 * backreference) gets no bound.
 *
 * @param source The pattern, valid with the `u` flag.
 * @returns The bound, at most {@linkcode MAX_BACKTRACKING_STEPS}; `undefined` when there is none that low.
 */
export function backtrackingSteps(source: string): number | undefined {
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
  let steps = 1;
  for (let j = atoms.length - 1; j >= 0; j--) {
    steps = atoms[j].choices * (atoms[j].longest + steps);
    if (steps > MAX_BACKTRACKING_STEPS) return undefined;
  }
  return steps;
}
