/**
 * A JSON Schema validator compiled once into a tree of closures: no `eval`,
 * no code built from strings, so it runs wherever code generation is
 * forbidden. A schema is checked first (everything the compiler would
 * refuse is refused then) and compiled when it is first needed.
 * Schemas it does not implement are refused as `unsupported`, for the caller
 * to validate with cfworker instead.
 *
 * @module
 */

import type { Diagnostic } from "../../common/diagnostics.ts";
import { DEFAULT_VALIDATOR_BUDGET, type ValidatorBudget } from "./budget.ts";
import { type CompiledPattern, nativePatterns, type PatternEngine } from "./patterns.ts";
import { SchemaRefusal } from "./refusal.ts";
import { checkSchema } from "./_check.ts";
import { Compiler } from "./_compile.ts";
import type { Draft } from "./_keywords.ts";
import { type Runtime, stackAsBudget } from "./_runtime.ts";
import type { FormatScanners } from "./_format_names.ts";
import { createRegistry, indexDocument, type Registry, resolveUri, ROOT_BASE, withoutFragment } from "./_refs.ts";

/** The drafts compiled: 2020-12 and draft-07. */
export type ValidatorDraft = Draft;

/** Options for {@linkcode compileValidator}. */
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
  /**
   * The format scanners (`FORMATS` of `_formats.ts`, which loads apart from
   * the core): {@linkcode compileValidator} needs them for a schema that
   * asserts a format.
   */
  readonly scanners?: FormatScanners;
  /** Bounds on compiling and on validating; see {@linkcode ValidatorBudget}. */
  readonly budget?: ValidatorBudget;
  /** Names the schema in budget errors, e.g. `inputSchema`. Default `schema`. */
  readonly label?: string;
  /** The most diagnostics `diagnose` collects. Default 64. */
  readonly maxDiagnostics?: number;
}

/** A compiled schema. Neither method is reentrant: validations run one at a time. */
export interface CompiledValidator {
  /** The draft the schema was compiled as. */
  readonly draft: ValidatorDraft;
  /**
   * Whether a JSON value is valid. It allocates nothing for most schemas.
   *
   * @param value Plain JSON data within the caller's size and depth limits.
   * @returns The verdict.
   * @throws {SchemaBudgetError} When the value takes more steps than the budget.
   */
  isValid(value: unknown): boolean;
  /**
   * Checks a value, then walks it again to say what is wrong with it: at
   * most `maxDiagnostics`, unsorted (sort and bound them with
   * `boundDiagnostics`). The check and the walk spend one step budget.
   *
   * @param value The value.
   * @returns The diagnostics; empty for a valid value.
   * @throws {SchemaBudgetError} When the value takes more steps than the budget.
   */
  diagnose(value: unknown): Diagnostic[];
  /**
   * As `diagnose`, for a value `isValid` has just refused: it is not checked again first, and its steps
   * count on from that check's, so that checking and diagnosing one value spend one budget between them.
   *
   * @param value The value `isValid` refused; for any other the diagnostics mean nothing.
   * @returns The diagnostics.
   * @throws {SchemaBudgetError} When the check and the diagnostics together take more steps than the budget.
   */
  diagnoseRefused(value: unknown): Diagnostic[];
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

/** A schema that passed the check: compiling it is refused no more. */
export interface CheckedValidator {
  /** The draft the schema is compiled as. */
  readonly draft: ValidatorDraft;
  /** Whether the schema asserts a format: compiling it then needs the format scanners. */
  readonly assertsFormats: boolean;
  /**
   * Builds the validator's closures; call it once, when the first value is to be validated.
   *
   * @param scanners The format scanners, when the schema asserts a format.
   * @returns The compiled validator.
   * @throws {TypeError} When the schema asserts a format and no scanners are given.
   */
  compile(scanners?: FormatScanners): CompiledValidator;
}

/**
 * Checks a JSON Schema (2020-12 or draft-07) for compiling, without building
 * anything: what would be refused is refused now, and the closures are built
 * by `compile()`, when first needed.
 *
 * @param schema The schema: an object or a boolean. It is read, never changed, and must not change afterwards.
 * @param options Draft, remotes (which must not change either), pattern engine, format assertion, budget.
 * @returns The checked schema, ready to compile.
 * @throws {SchemaRefusal} With kind `unsupported` for a keyword, pattern,
 * format, draft or reference this validator does not handle (validate with
 * cfworker instead), or kind `invalid` for a malformed schema, one nested
 * deeper than 64 schemas, or one whose expansion exceeds the budget.
 *
 * @example Check now, compile on first use
 * ```ts
 * import { checkValidator } from "./validator.ts";
 * import assert from "node:assert/strict";
 *
 * const checked = checkValidator({ type: "array", items: { type: "integer" } });
 * const validator = checked.compile();
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
  const known = draft;
  const patterns = options.patterns ?? nativePatterns;
  const assertFormats = options.formats === "assert";
  const maxSchemas = options.budget?.schemaNodes ?? DEFAULT_VALIDATOR_BUDGET.schemaNodes;
  const checked = checkSchema(schema, ROOT_BASE, {
    draft,
    registry: index(schema, options.remotes, draft, maxSchemas),
    patterns,
    assertFormats,
    maxNodes: options.budget?.compiledNodes ?? DEFAULT_VALIDATOR_BUDGET.compiledNodes,
    draftOf,
  });
  const { assertsFormats } = checked;
  // The built-in RegExp compiles in no time: a registered schema does not hold its patterns until its first call.
  const compiledPatterns = patterns === nativePatterns ? NO_PATTERNS : checked.patterns;
  return {
    draft,
    assertsFormats,
    compile: (scanners) => {
      if (assertsFormats && scanners === undefined) {
        throw new TypeError("Cannot compile the schema as it asserts a format: current value is no format scanners");
      }
      const registry = index(schema, options.remotes, known, maxSchemas);
      const runtime: Runtime = {
        steps: 0,
        limit: options.budget?.stepsPerValue ?? DEFAULT_VALIDATOR_BUDGET.stepsPerValue,
        label: options.label ?? "schema",
        scope: [],
      };
      const compiler = new Compiler({
        draft: known,
        registry,
        patterns,
        compiledPatterns,
        assertFormats,
        scanners,
        runtime,
      });
      const root = compiler.compile(schema, registry.bases.get(schema as object) ?? ROOT_BASE, "");
      const check = root.check;
      const maxDiagnostics = options.maxDiagnostics ?? 64;
      return {
        draft: known,
        isValid(value: unknown): boolean {
          runtime.steps = 0;
          // A validation stopped over budget may have left resources in the scope. (Setting the length is not free.)
          if (runtime.scope.length !== 0) runtime.scope.length = 0;
          try {
            return check(value, undefined);
          } catch (error) {
            throw stackAsBudget(error, runtime.label, runtime.limit);
          }
        },
        diagnose(value: unknown): Diagnostic[] {
          // A node reports only what its check refused.
          return this.isValid(value) ? [] : this.diagnoseRefused(value);
        },
        diagnoseRefused(value: unknown): Diagnostic[] {
          // No reset: the check that refused the value and its diagnostics spend one budget between them.
          const sink = { out: [] as Diagnostic[], max: maxDiagnostics };
          try {
            root.report(value, "", sink, undefined);
          } catch (error) {
            throw stackAsBudget(error, runtime.label, runtime.limit);
          }
          return sink.out;
        },
      };
    },
  };
}

const NO_PATTERNS: ReadonlyMap<string, CompiledPattern> = new Map();

/** Indexes the schema and its remotes: their resources, anchors, base URIs and locations. */
function index(
  schema: unknown,
  remotes: Readonly<Record<string, unknown>> | undefined,
  draft: Draft,
  maxSchemas: number,
): Registry {
  const registry = createRegistry(maxSchemas);
  for (const [uri, remote] of Object.entries(remotes ?? {})) {
    const resolved = resolveUri(uri, ROOT_BASE);
    const base = resolved === undefined ? uri : withoutFragment(resolved);
    indexDocument(remote, base, `${uri}#`, draft, registry);
  }
  indexDocument(schema, ROOT_BASE, "", draft, registry);
  return registry;
}

/**
 * Compiles a JSON Schema (2020-12 or draft-07) into a validator: {@linkcode checkValidator}, then its
 * `compile()` with `options.scanners`.
 *
 * @param schema The schema: an object or a boolean. It is read, never changed, and must not change afterwards.
 * @param options Draft, remotes, pattern engine, format assertion, budget.
 * @returns The compiled validator.
 * @throws {SchemaRefusal} As {@linkcode checkValidator} does.
 * @throws {TypeError} When the schema asserts a format and `options.scanners` is absent.
 *
 * @example Validate and diagnose
 * ```ts
 * import { compileValidator } from "./validator.ts";
 * import assert from "node:assert/strict";
 *
 * const validator = compileValidator({
 *   type: "object",
 *   properties: { name: { type: "string" } },
 *   required: ["name"],
 * });
 * assert.equal(validator.isValid({ name: "a" }), true);
 * assert.deepEqual(validator.diagnose({}), [
 *   { path: "/name", keyword: "required", message: 'Missing required property "name".' },
 * ]);
 * ```
 */
export function compileValidator(schema: unknown, options: ValidatorOptions = {}): CompiledValidator {
  return checkValidator(schema, options).compile(options.scanners);
}
