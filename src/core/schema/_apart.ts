// The parts of validation that load apart from the core, the first time a
// schema needs them: the compiled validator's closures (their compiler and
// what they run, which every schema the core compiles needs), the fallback
// validator (`@cfworker/json-schema`, for what the compiled validator does
// not implement), the format scanners (for `formats: "assert"`), the engine
// for a host schema's patterns and re2js (for a pattern of one that could
// backtrack for long), and, for a schema from outside (a parked call's record
// that is not sealed), the analysis of a pattern's backtracking and the
// linear-time engine. Few schemas need any of the last six; a bundler splits
// each dynamic import into a chunk of its own.

import { type Apart, apart } from "../common/_apart.ts";
import type { compileFallback } from "./_cfworker.ts";
import type { buildValidator } from "./validator/_build.ts";
import type * as Backtracking from "./validator/_backtracking.ts";
import type { FormatScanners } from "./validator/_format_names.ts";
import type * as HostPatterns from "./validator/_host_patterns.ts";
import type { PatternEngine } from "./validator/patterns.ts";

/** What builds the compiled validator's closures from a checked schema. */
export const BUILD: Apart<typeof buildValidator> = apart(() =>
  import("./validator/_build.ts").then((module) => module.buildValidator)
);

/** The fallback validator's compile function. */
export const FALLBACK: Apart<typeof compileFallback> = apart(() =>
  import("./_cfworker.ts").then((module) => module.compileFallback)
);

/** The format scanners. */
export const SCANNERS: Apart<FormatScanners> = apart(() =>
  import("./validator/_formats.ts").then((module) => module.FORMATS)
);

/** The engine for a host schema's patterns, and whether a schema's patterns need re2js. */
export const HOST_PATTERNS: Apart<typeof HostPatterns> = apart(() => import("./validator/_host_patterns.ts"));

/** re2js, behind the translation of ECMA-262 patterns to its syntax. */
export const RE2: Apart<HostPatterns.CompileRe2> = apart(() =>
  import("./validator/_re2.ts").then((module) => module.compileRe2)
);

/** Which patterns cannot backtrack for long, and the engine that runs only those. */
export const BACKTRACKING: Apart<typeof Backtracking> = apart(() => import("./validator/_backtracking.ts"));

/** The linear-time engine for a schema from outside, with re2js. */
export const LINEAR_PATTERNS: Apart<PatternEngine> = apart(() =>
  import("./validator/linear_patterns.ts").then((module) => module.linearPatterns)
);
