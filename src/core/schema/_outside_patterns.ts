// The engine for the patterns of a schema from outside that the core compiles
// (a parked call's record that is not sealed, which whoever held it may have
// rewritten): `linearPatterns`, so that no text can make a pattern backtrack
// for long. Its analysis and re2js load apart from the core, and re2js (a
// chunk of 47 KB gzipped) only for a schema with a pattern that needs it.

import { BACKTRACKING, LINEAR_PATTERNS } from "./_apart.ts";
import { walkSubschemas } from "./_subschemas.ts";
import type { PatternEngine } from "./validator/patterns.ts";

/**
 * The engine for a schema from outside, once what it needs has loaded: every pattern that cannot backtrack for long
 * on the built-in RegExp, any other on re2js (which refuses one it cannot express, a backreference or a lookaround),
 * as `linearPatterns` runs them.
 *
 * @param schema The schema, a private copy.
 * @returns The engine, or a promise that settles once what it needs has loaded (then ask again); it rejects when
 * that cannot load.
 */
export function outsidePatterns(schema: unknown): PatternEngine | Promise<void> {
  const backtracking = BACKTRACKING.loaded;
  if (backtracking === undefined) return BACKTRACKING.load();
  // A pattern the walk missed, if any, is refused by the bounded engine rather than run.
  if (!backtracking.needsRe2(patternsOf(schema))) return backtracking.boundedPatterns;
  return LINEAR_PATTERNS.loaded ?? LINEAR_PATTERNS.load();
}

/** Every `pattern` and `patternProperties` key of a schema's subschemas. */
function patternsOf(schema: unknown): string[] {
  const sources: string[] = [];
  walkSubschemas(schema, undefined, (node) => {
    if (typeof node.pattern === "string") sources.push(node.pattern);
    const keyed = node.patternProperties;
    if (typeof keyed === "object" && keyed !== null) { for (const source of Object.keys(keyed)) sources.push(source); }
  });
  return sources;
}
