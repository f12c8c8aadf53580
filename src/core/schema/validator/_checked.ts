// A JSON Schema checked for the compiled validator, with nothing built: what
// compiling it would refuse is refused here, and what building its closures
// needs is kept as plain data for `_build.ts`, which runs on the first
// validation. The core loads this module up front and `_build.ts`, most of
// the validator's code, apart from it.

import { DEFAULT_VALIDATOR_BUDGET, type ValidatorBudget } from "./budget.ts";
import { type CompiledPattern, nativePatterns, type PatternEngine } from "./patterns.ts";
import { SchemaRefusal } from "./refusal.ts";
import { checkSchema } from "./_check.ts";
import type { Draft } from "./_keywords.ts";
import { createRegistry, indexDocument, type Registry, resolveUri, ROOT_BASE, withoutFragment } from "./_refs.ts";

/** The drafts compiled: 2020-12 and draft-07. */
export type ValidatorDraft = Draft;

/** Options for checking and compiling a schema (`checkValidator`, then `buildValidator`). */
export interface ValidatorOptions {
  /** The draft; read from `$schema` when absent (none means 2020-12; one not known is refused as `unsupported`). */
  readonly draft?: ValidatorDraft;
  /**
   * Schemas a `$ref` may name by absolute URI, registered from memory;
   * nothing is ever fetched.
   */
  readonly remotes?: Readonly<Record<string, unknown>>;
  /** How `pattern` and `patternProperties` run. Default {@linkcode nativePatterns}; untrusted schemas want `linearPatterns`. */
  readonly patterns?: PatternEngine;
  /** `"annotate"` (default, as 2020-12 says) ignores `format`; `"assert"` checks the common formats (and draft-07's content keywords). */
  readonly formats?: "annotate" | "assert";
  /** Bounds on compiling and on validating; see {@linkcode ValidatorBudget}. */
  readonly budget?: ValidatorBudget;
  /** Names the schema in budget errors, e.g. `inputSchema`. Default `schema`. */
  readonly label?: string;
  /** The most diagnostics `diagnose` collects. Default 64. */
  readonly maxDiagnostics?: number;
}

/** A schema that passed the check, as `buildValidator` reads it: building its closures is refused no more. */
export interface CheckedValidator {
  /** The schema, read and never changed; it must not change afterwards. */
  readonly schema: unknown;
  /** The options it was checked with. */
  readonly options: ValidatorOptions;
  /** The draft the schema is compiled as. */
  readonly draft: ValidatorDraft;
  /** The engine its patterns run on. */
  readonly patterns: PatternEngine;
  /** Its patterns, compiled by that engine during the check; none for the built-in `RegExp`, compiled when built. */
  readonly compiledPatterns: ReadonlyMap<string, CompiledPattern>;
  /**
   * Its distinct patterns when it was checked with no engine given, as a host's own schema is: the core builds it
   * with the engine of `_host_patterns.ts` in place of the built-in `RegExp`, since the text a pattern tests is a
   * model's. None when an engine was given.
   */
  readonly hostPatterns: readonly string[];
  /** Whether the schema asserts a format: building it then needs the format scanners. */
  readonly assertsFormats: boolean;
}

/**
 * Reads the draft a `$schema` URI declares.
 *
 * @param declared The `$schema` value.
 * @returns The draft, or `undefined` for one not compiled.
 */
function draftOf(declared: string): Draft | undefined {
  const uri = declared.replace(/#$/, "").replace(/^https:/, "http:");
  if (uri === "http://json-schema.org/draft-07/schema") return "7";
  if (uri === "http://json-schema.org/draft/2020-12/schema") return "2020-12";
  return undefined;
}

/**
 * Checks a JSON Schema (2020-12 or draft-07) for compiling, without building
 * anything: what would be refused is refused now, and the closures are built
 * by `buildValidator`, when first needed.
 *
 * @param schema The schema: an object or a boolean. It is read, never changed, and must not change afterwards.
 * @param options Draft, remotes (which must not change either), pattern engine, format assertion, budget.
 * @returns The checked schema, ready to build.
 * @throws {SchemaRefusal} With kind `unsupported` for a keyword, pattern,
 * format, draft or reference this validator does not handle (validate with
 * cfworker instead), or kind `invalid` for a malformed schema, one nested
 * deeper than 64 schemas, or one whose expansion exceeds the budget.
 *
 * @example Check now, build on first use
 * ```ts
 * import { checkValidator } from "./_checked.ts";
 * import { buildValidator } from "./_build.ts";
 * import assert from "node:assert/strict";
 *
 * const checked = checkValidator({ type: "array", items: { type: "integer" } });
 * const validator = buildValidator(checked);
 * assert.equal(validator.isValid([1, 2]), true);
 * assert.equal(validator.isValid([1, "2"]), false);
 * ```
 */
export function checkValidator(schema: unknown, options: ValidatorOptions = {}): CheckedValidator {
  const declared = typeof schema === "object" && schema !== null
    ? (schema as Record<string, unknown>).$schema
    : undefined;
  let draft = options.draft;
  if (draft === undefined) {
    draft = typeof declared === "string" ? draftOf(declared) : "2020-12";
    if (draft === undefined) {
      throw new SchemaRefusal(
        "unsupported",
        "draft",
        "$schema",
        "/$schema",
        `Cannot compile the schema as "$schema" at /$schema declares ${JSON.stringify(declared)}, a draft not compiled`,
      );
    }
  }
  const patterns = options.patterns ?? nativePatterns;
  const checked = checkSchema(schema, ROOT_BASE, {
    draft,
    registry: indexSchema(schema, draft, options),
    patterns,
    assertFormats: options.formats === "assert",
    maxNodes: options.budget?.compiledNodes ?? DEFAULT_VALIDATOR_BUDGET.compiledNodes,
    draftOf,
  });
  return {
    schema,
    options,
    draft,
    patterns,
    // The built-in RegExp compiles in no time: a registered schema does not hold its patterns until its first call.
    compiledPatterns: patterns === nativePatterns ? NO_PATTERNS : checked.patterns,
    hostPatterns: options.patterns === undefined ? [...checked.patterns.keys()] : [],
    assertsFormats: checked.assertsFormats,
  };
}

const NO_PATTERNS: ReadonlyMap<string, CompiledPattern> = new Map();

/**
 * Indexes the schema and its remotes: their resources, anchors, base URIs and locations.
 *
 * @param schema The schema.
 * @param draft The draft it is read as.
 * @param options The options it is checked with: its remotes, and the budget that bounds how many schemas the
 * documents may hold.
 * @returns The index.
 * @throws {SchemaRefusal} When the documents hold too many schemas, nest too deep, or claim one URI twice.
 */
export function indexSchema(schema: unknown, draft: Draft, options: ValidatorOptions): Registry {
  const registry = createRegistry(options.budget?.schemaNodes ?? DEFAULT_VALIDATOR_BUDGET.schemaNodes);
  for (const [uri, remote] of Object.entries(options.remotes ?? {})) {
    const resolved = resolveUri(uri, ROOT_BASE);
    const base = resolved === undefined ? uri : withoutFragment(resolved);
    indexDocument(remote, base, `${uri}#`, draft, registry);
  }
  indexDocument(schema, ROOT_BASE, "", draft, registry);
  return registry;
}
