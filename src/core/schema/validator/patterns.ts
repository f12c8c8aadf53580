/**
 * Pattern engines: how `pattern` and `patternProperties` regular expressions
 * run. The engine is an option so that an untrusted schema can be given one
 * that never backtracks.
 *
 * @module
 */

/**
 * The most one test of a pattern can cost, in the validator's steps (the
 * budget's unit; a step of a pattern stands for about 30 nanoseconds of its
 * engine's work): `perCharacter` for each character of the text, and
 * `fixed` more.
 */
export interface PatternCost {
  /** Steps for each character of the text. */
  readonly perCharacter: number;
  /** Steps for the test itself. */
  readonly fixed: number;
}

/** What a test of a pattern costs when its engine does not say: the built-in RegExp on a simple pattern. */
export const DEFAULT_PATTERN_COST: PatternCost = Object.freeze({ perCharacter: 1 / 32, fixed: 1 });

/** A compiled pattern: does it match somewhere in the text (unanchored). */
export interface CompiledPattern {
  /**
   * Tests a string.
   *
   * @param text The string.
   * @returns Whether the pattern matches some part of it.
   */
  test(text: string): boolean;
  /**
   * What one test costs at most. Validation charges it to its step budget
   * before each test, so that a value whose long strings many patterns test
   * ends over budget instead of blocking the host. Absent:
   * {@linkcode DEFAULT_PATTERN_COST}.
   */
  readonly cost?: PatternCost;
}

/**
 * Compiles JSON Schema patterns (the ECMA-262 dialect). The validator first
 * checks the pattern's syntax with `RegExp`, so an engine's `compile` only
 * throws for a valid pattern it cannot express; the schema is then refused
 * as `unsupported`, with the error's message as the reason.
 */
export interface PatternEngine {
  /**
   * Compiles a pattern.
   *
   * @param source The pattern as the schema writes it.
   * @returns The compiled pattern.
   * @throws {Error} When the engine cannot express the pattern.
   */
  compile(source: string): CompiledPattern;
}

/**
 * The built-in `RegExp` for every pattern. It backtracks, and the text a
 * pattern tests is a model's: `\d+px` took 100 s against 200,000 digits.
 * By default, a host's schema runs on it only the patterns that cannot
 * backtrack for long; give this engine (`patterns: nativePatterns`) for a
 * schema whose patterns you have checked yourself, and
 * {@linkcode linearPatterns} for a schema from outside.
 *
 * @example A pattern through the built-in engine
 * ```ts
 * import { compileSchema, nativePatterns } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * assert.ok(nativePatterns.compile("^\\p{L}+$").test("héllo"));
 * const schema = compileSchema({ type: "string", pattern: "^(\\w+\\s?)+$" }, { patterns: nativePatterns });
 * assert.equal(schema.validate("checked by hand").ok, true);
 * ```
 */
export const nativePatterns: PatternEngine = Object.freeze({
  compile(source: string): CompiledPattern {
    return new RegExp(source, "u");
  },
});
