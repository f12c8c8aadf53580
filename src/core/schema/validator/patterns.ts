/**
 * Pattern engines: how `pattern` and `patternProperties` regular expressions
 * run. The engine is an option so that an untrusted schema can be given one
 * that never backtracks.
 *
 * @module
 */

/** A compiled pattern: does it match somewhere in the text (unanchored). */
export interface CompiledPattern {
  /**
   * Tests a string.
   *
   * @param text The string.
   * @returns Whether the pattern matches some part of it.
   */
  test(text: string): boolean;
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
 * The built-in `RegExp` engine. It backtracks: use it only for trusted
 * schemas, and {@linkcode linearPatterns} for the rest.
 *
 * @example A pattern through the built-in engine
 * ```ts
 * import { nativePatterns } from "./patterns.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(nativePatterns.compile("^\\p{L}+$").test("héllo"));
 * ```
 */
export const nativePatterns: PatternEngine = Object.freeze({
  compile(source: string): CompiledPattern {
    return new RegExp(source, "u");
  },
});
