// The engine a host's own schema runs its patterns on when it names none. The
// schema is trusted; the text a pattern tests is a model's, and is not: on
// the built-in RegExp, `\d+px` took 100 s against 200,000 digits, and
// `^(a+)+$` hours against forty `a`s and a `!`. So a pattern that cannot
// backtrack for long runs on the built-in RegExp, any other on re2js (linear
// in the text; loaded apart, the first time a schema needs it), and one re2js
// cannot express (a backreference, a lookaround), which only a backtracking
// engine runs, on the built-in RegExp, as the host wrote it.

import { boundedPattern } from "./_backtracking.ts";
import type { CompiledPattern, PatternEngine } from "./patterns.ts";

// Whether a schema's patterns need re2js, asked by whoever loads this module.
export { needsRe2 } from "./_backtracking.ts";

/** Compiles a pattern for re2js, or throws when re2js cannot express it (`compileRe2` of `_re2.ts`). */
export type CompileRe2 = (source: string) => CompiledPattern;

/**
 * The engine for a host schema's patterns.
 *
 * @param compileRe2 re2js's compile; only a schema for which {@linkcode needsRe2} is false may do without it.
 * @returns The engine.
 *
 * @example A pattern that could backtrack runs on re2js; a bounded one on the built-in RegExp
 * ```ts
 * import { hostPatterns } from "./_host_patterns.ts";
 * import { compileRe2 } from "./_re2.ts";
 * import assert from "node:assert/strict";
 *
 * const engine = hostPatterns(compileRe2);
 * assert.equal(engine.compile("\\d+px").test("1".repeat(200_000)), false);
 * assert.equal(engine.compile("^[A-Z][A-Z0-9]{1,9}-\\d+$").test("AUTH-42"), true);
 * assert.equal(engine.compile("^(a)\\1$").test("aa"), true);
 * ```
 */
export function hostPatterns(compileRe2: CompileRe2 | undefined): PatternEngine {
  return {
    compile(source: string): CompiledPattern {
      const bounded = boundedPattern(source);
      if (bounded !== undefined) return bounded;
      if (compileRe2 === undefined) {
        throw new TypeError(`Cannot compile the pattern ${JSON.stringify(source)} as re2js has not loaded`);
      }
      try {
        return compileRe2(source);
      } catch {
        // A backreference or a lookaround: the host wrote a pattern only a backtracking engine runs. (Built here, not
        // by `nativePatterns`, so that the core's bundle does not split patterns.ts into a chunk of its own.)
        return new RegExp(source, "u");
      }
    },
  };
}
