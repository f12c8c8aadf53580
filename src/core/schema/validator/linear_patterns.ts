/**
 * A pattern engine that runs in time linear in the text, for untrusted
 * schemas: JSON Schema's ECMA-262 patterns are translated to RE2 syntax and
 * run by `re2js`, a pure JavaScript port of RE2 (no WebAssembly), except a
 * pattern that cannot backtrack for long on any text (see
 * `backtrackingBound`), which runs on the built-in RegExp, as fast and as
 * safe. Kept out of the core so that only callers who choose it load `re2js`.
 *
 * @module
 */

import { boundedPattern } from "./_backtracking.ts";
import type { CompiledPattern, PatternEngine } from "./patterns.ts";
import { compileRe2 } from "./_re2.ts";

/**
 * The linear-time engine: no pattern and no input can make it backtrack for
 * long. A pattern anchored at the start that is a chain of single characters,
 * classes and escapes, with at most one unbounded quantifier, and whose
 * backtracking is bounded by 64 steps a character and 1,024 more a test
 * (`^\d{4}-\d{2}-\d{2}$`, `^[a-z][a-z0-9_-]{1,31}$`,
 * `^[A-Z][A-Z0-9]{1,9}-\d+$`), runs on the built-in RegExp, about 40 times
 * faster than re2js; any other on re2js.
 * Patterns with backreferences or lookarounds cannot be expressed; compiling
 * one throws, so the validator refuses the schema as `unsupported`.
 *
 * @example A catastrophic pattern stays fast
 * ```ts
 * import { linearPatterns } from "./linear_patterns.ts";
 * import assert from "node:assert/strict";
 *
 * const pattern = linearPatterns.compile("^(a+)+$");
 * assert.equal(pattern.test("a".repeat(40) + "!"), false);
 * assert.equal(linearPatterns.compile("^[A-Z][A-Z0-9]{1,9}-\\d+$").test("AUTH-42"), true);
 * assert.throws(() => linearPatterns.compile("^(a)\\1$"), /backreference/);
 * ```
 */
export const linearPatterns: PatternEngine = Object.freeze({
  compile(source: string): CompiledPattern {
    return boundedPattern(source) ?? compileRe2(source);
  },
});
