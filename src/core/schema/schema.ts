/**
 * JSON Schema compilation and validation with no `eval`, so it runs on edge
 * runtimes: the compiled validator (`./validator/`) for 2020-12 and draft-07,
 * `@cfworker/json-schema` as the fallback for what it does not implement.
 *
 * @module
 */

import { isRecord } from "../common/_is_record.ts";
import type { DiagnosticReport } from "../common/diagnostics.ts";
import { boundDiagnostics } from "../common/diagnostics.ts";
import { InvalidSpecError } from "../common/errors.ts";
import { copyJsonValue, type JsonLimits, SCHEMA_LIMITS } from "../common/limits.ts";
import { appendPointer } from "../common/_json_pointer.ts";
import { messageOfThrown } from "../common/_describe_thrown.ts";
import { DEFAULT_VALIDATOR_BUDGET, stackAsBudget, type ValidatorBudget } from "./validator/budget.ts";
import { nativePatterns, type PatternEngine } from "./validator/patterns.ts";
import { SchemaRefusal } from "./validator/refusal.ts";
import { resolveUri, tooManySchemas, withoutFragment } from "./validator/_refs.ts";
import { type CheckedValidator, checkValidator } from "./validator/_checked.ts";
import type { buildValidator, CompiledValidator } from "./validator/_build.ts";
import type { FormatScanners } from "./validator/_format_names.ts";
import { deepFreeze } from "../common/_deep_freeze.ts";
import { walkSubschemas } from "./_subschemas.ts";
import { type Apart, joined, present } from "../common/_apart.ts";
import { BUILD, FALLBACK, HOST_PATTERNS, RE2, SCANNERS } from "./_apart.ts";
import type * as HostPatterns from "./validator/_host_patterns.ts";
import { asNearestDraft, isNearDraft, nearestDraftOf } from "./_nearest_draft.ts";

/** A JSON Schema: an object or a boolean, as JSON carries it. */
export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

/** The JSON Schema drafts a schema can be validated as. */
export type JsonSchemaDraft = "2020-12" | "2019-09" | "7" | "6" | "4";

/** Options for `compileSchema` (of `@salvor/tools/dyn`). */
export interface CompileSchemaOptions {
  /**
   * Schemas a `$ref` may point to by absolute URI, registered from memory;
   * nothing is ever fetched. Keyed by the URI a `$ref` resolves to. Each is
   * checked as the schema is.
   */
  readonly remotes?: Readonly<Record<string, JsonSchema>>;
  /** The draft to validate as; read from `$schema` when absent, else 2020-12. */
  readonly draft?: JsonSchemaDraft;
  /** The bounds on the schema and its remotes: size, depth and how many objects and arrays; `SCHEMA_LIMITS` when absent. */
  readonly limits?: JsonLimits;
  /** Names the schema in error messages, e.g. `inputSchema`. */
  readonly label?: string;
  /**
   * How `pattern` and `patternProperties` run. A pattern tests a model's
   * text, so by default one runs on the built-in `RegExp` only when it
   * cannot backtrack for long, any other on re2js (linear in the text,
   * loaded apart by the core the first time a schema needs it), and one
   * re2js cannot express (a backreference, a lookaround) on the built-in
   * `RegExp` as the host wrote it. `nativePatterns` runs every pattern on
   * the built-in `RegExp`, which backtracks. A schema from outside (an MCP
   * server's, a user's) takes `linearPatterns` from `@salvor/tools/dyn`:
   * any engine but the default and `nativePatterns` marks the schema
   * untrusted, and a pattern that engine cannot express is refused, never
   * run another way. An untrusted schema never runs on the fallback
   * validator, which has no step budget: a draft-04 or draft-06 one is
   * compiled as draft-07 and a 2019-09 one as 2020-12 where their keywords
   * mean the same there, and any other the compiled validator cannot run is
   * refused.
   */
  readonly patterns?: PatternEngine;
  /**
   * `"annotate"` (the default, as 2020-12 says) ignores `format`; `"assert"`
   * checks the common formats (date-time, email, uri, uuid, ...) and, in a
   * draft-07 schema, `contentEncoding: "base64"` and `contentMediaType:
   * "application/json"`.
   */
  readonly formats?: "annotate" | "assert";
  /**
   * Bounds on the compiled size and on the steps and time one value's
   * validation may take. Default 100,000 compiled schemas, and 1,000,000
   * steps or 30 ms a value, whichever comes first.
   */
  readonly budget?: ValidatorBudget;
}

/** The result of validating a value: valid, or the bounded diagnostics. */
export type SchemaValidation =
  | { readonly ok: true }
  | ({ readonly ok: false } & DiagnosticReport);

/** The result of parsing untrusted arguments or an output: the value to use, or the bounded diagnostics. */
export type ParseResult =
  | { readonly ok: true; readonly value: unknown }
  | ({ readonly ok: false } & DiagnosticReport);

/**
 * Which validator a compiled schema runs on: `compiled` (the closures of
 * `./validator/`, with the step budget) or `fallback` (`@cfworker/json-schema`,
 * for a draft or keyword the compiled validator does not implement, and a
 * draft-04, draft-06 or 2019-09 schema it cannot read as the nearer draft).
 */
export type SchemaEngine = "compiled" | "fallback";

/**
 * A schema checked once, ready to validate many values. Its validator is
 * built on the first validation, so a schema never used costs only its check.
 */
export interface CompiledSchema {
  /** The draft the schema is validated as. */
  readonly draft: JsonSchemaDraft;
  /** The schema as compiled: a private, frozen deep copy of the one given. */
  readonly schema: JsonSchema;
  /** Which validator runs it. */
  readonly engine: SchemaEngine;
  /**
   * Settles when what this schema's validator needs has loaded, while it
   * has not: the fallback validator (`@cfworker/json-schema`, for a
   * `fallback` schema) loads apart from the core, the first time a schema
   * needs it, so such a schema is validated only once this settles.
   * `undefined` when `validate` can run now, as it always can for any other
   * schema `compileSchema` compiled. (The core compiles its tools' schemas
   * with the compiled validator's code and the format scanners loaded apart
   * too, and awaits this before it validates.) Rejects when what it needs
   * cannot load.
   */
  readonly loading: Promise<void> | undefined;
  /**
   * Validates a value that is already known to be plain JSON data.
   *
   * @param value The value; it is not changed.
   * @returns Valid, or at most 16 sorted diagnostics.
   * @throws {SchemaBudgetError} When the value takes more steps than the
   * budget: the schema's cost multiplies, the value is not at fault.
   * @throws {TypeError} While `loading` has not settled, or when what it
   * needs failed to load.
   * @throws {InvalidSpecError} When the fallback cannot read the schema
   * (a duplicate schema URI), which it finds only then; the compiled path
   * refuses such a schema when it is compiled.
   */
  validate(value: unknown): SchemaValidation;
}

/**
 * Reads the draft a schema declares in `$schema`. Most MCP servers declare
 * draft-07; anything unrecognised, or nothing, means 2020-12.
 *
 * @param schema The schema.
 * @returns The draft to validate it as.
 *
 * @example
 * ```ts
 * import { draftOf } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * assert.equal(draftOf({ $schema: "http://json-schema.org/draft-07/schema#" }), "7");
 * assert.equal(draftOf({ type: "object" }), "2020-12");
 * ```
 */
export function draftOf(schema: JsonSchema): JsonSchemaDraft {
  const declared = typeof schema === "object" ? schema.$schema : undefined;
  if (typeof declared !== "string") return "2020-12";
  if (declared.includes("draft-07")) return "7";
  if (declared.includes("draft-06")) return "6";
  if (declared.includes("draft-04")) return "4";
  if (declared.includes("2019-09")) return "2019-09";
  return "2020-12";
}

/** The draft of a schema's remote: the one it declares, or else the schema's `draft`. */
function remoteDraft(remote: unknown, draft: JsonSchemaDraft): JsonSchemaDraft {
  return isRecord(remote) && remote.$schema !== undefined ? draftOf(remote) : draft;
}

// Resolves relative `$id` and `$ref` values without naming any real host.
const ROOT_BASE = "salvor:/root";

interface Reference {
  readonly ref: string;
  readonly resolved: string | undefined;
  readonly path: string;
  /** The URI of the remote the reference is in; none for the schema itself. */
  readonly remote?: string;
}

/**
 * Finds the first reference, in the schema or in one of its registered
 * remotes, that points outside that document set. A `$ref` resolving to a
 * resource a document embeds (by `$id`) or to a remote is internal, like
 * one starting with `#`; a remote's own references resolve against its URI.
 * It is the first walk of the subschemas, so it also counts them, and stops
 * past `maxSchemas`: nothing costlier runs on a schema over the budget.
 *
 * @throws {SchemaRefusal} When the documents hold more than `maxSchemas` schemas.
 */
function findExternalReference(
  schema: JsonSchema,
  remotes: Readonly<Record<string, JsonSchema>>,
  maxSchemas: number,
  draft: JsonSchemaDraft,
): Reference | undefined {
  const resources = new Set([ROOT_BASE]);
  const references: Reference[] = [];
  let schemas = 0;
  // Collects the schema resources a document (the schema or its `remote`) of draft `own` embeds and every reference
  // it makes.
  const collect = (document: JsonSchema, own: JsonSchemaDraft, base: string, remote?: string) => {
    // Draft-04 names a schema resource with `id`, the later drafts with `$id`; up to draft-07, `$ref` makes its
    // siblings ignored, an identifier among them.
    const idKeyword = own === "4" ? "id" : "$id";
    const refHidesId = own === "4" || own === "6" || own === "7";
    walkSubschemas(document, base, (node, path, base) => {
      if (++schemas > maxSchemas) throw tooManySchemas(maxSchemas, remote === undefined ? path : `${remote}#${path}`);
      const id = refHidesId && typeof node.$ref === "string" ? undefined : node[idKeyword];
      if (typeof id === "string") {
        const resolved = resolveUri(id, base);
        if (resolved) {
          base = withoutFragment(resolved);
          resources.add(base);
        }
      }
      for (const keyword of ["$ref", "$dynamicRef", "$recursiveRef"]) {
        const ref = node[keyword];
        if (typeof ref === "string") {
          references.push({ ref, resolved: resolveUri(ref, base), path: appendPointer(path, keyword), remote });
        }
      }
      return base;
    });
  };
  collect(schema, draft, ROOT_BASE);
  for (const [uri, remote] of Object.entries(remotes)) {
    // Resolving the URI may normalise it (a host's case, an empty path).
    const base = withoutFragment(resolveUri(uri, ROOT_BASE) ?? uri);
    resources.add(withoutFragment(uri)).add(base);
    collect(remote, remoteDraft(remote, draft), base, uri);
  }
  return references.find(({ resolved }) => resolved === undefined || !resources.has(withoutFragment(resolved)));
}

/**
 * A private copy of the schema, or of one of its remotes, each property read once; refuses it when it is not bounded
 * JSON or not a JSON Schema.
 */
function checkedCopy(document: unknown, label: string, limits: JsonLimits, remote?: string): JsonSchema {
  const what = remote === undefined ? "it" : `its remote "${remote}"`;
  const copied = copyJsonValue(document, limits);
  if (!copied.ok) {
    throw new InvalidSpecError(
      `Cannot compile the ${label} as ${what} is not bounded JSON: ${copied.problem.message}`,
      { path: copied.problem.path },
    );
  }
  return asJsonSchema(copied.value, label, remote);
}

/** A copy that is a JSON Schema (an object or a boolean) as one; refuses any other value. */
function asJsonSchema(copy: unknown, label: string, remote?: string): JsonSchema {
  if (typeof copy !== "boolean" && (typeof copy !== "object" || copy === null || Array.isArray(copy))) {
    throw new InvalidSpecError(
      `Cannot compile the ${label} as a JSON Schema must be an object or a boolean: current value ${
        remote === undefined ? "" : `of its remote "${remote}" `
      }is ${JSON.stringify(copy)}`,
      { path: "" },
    );
  }
  return copy as JsonSchema;
}

/** What builds the compiled validator's closures from a checked schema. */
export type BuildValidator = typeof buildValidator;

/**
 * What the compiled validator is built with, each loaded apart from the core on first need or imported up front:
 * what builds its closures, the format scanners (for a schema that asserts a format), and the engine for a host
 * schema's patterns with re2js (for a pattern of one that could backtrack for long).
 */
export interface ValidatorParts {
  /** What builds the closures. */
  readonly build: Apart<BuildValidator>;
  /** The format scanners. */
  readonly scanners: Apart<FormatScanners>;
  /** The engine for a host schema's patterns. */
  readonly hostPatterns: Apart<typeof HostPatterns>;
  /** re2js's compile. */
  readonly re2: Apart<HostPatterns.CompileRe2>;
}

/** The core's parts: all load apart from it. */
const PARTS_APART: ValidatorParts = { build: BUILD, scanners: SCANNERS, hostPatterns: HOST_PATTERNS, re2: RE2 };

/**
 * Compiles a schema as `compileSchema` of `@salvor/tools/dyn` does, for the core: the compiled validator's
 * closures (and the format scanners) load apart from it, the first time a schema needs them, so that an app that defines its tools with
 * Valibot loads none of that code up front. The loading starts now, and whatever validates the schema (its
 * tool's parser, a ToolSet) awaits `loading` first, as it does for the fallback validator.
 *
 * @param schema The schema.
 * @param options As `compileSchema`'s.
 * @param described Whether the schema is a tool descriptor's, which `describeTool` copied under the schema limits and
 * deep-froze: nothing can change it, so it is read as it is rather than copied again.
 * @returns The compiled schema.
 * @throws {InvalidSpecError} As `compileSchema` does.
 */
export function compileSchemaApart(
  schema: JsonSchema,
  options: CompileSchemaOptions = {},
  described = false,
): CompiledSchema {
  return compileSchemaWith(schema, options, PARTS_APART, described);
}

/**
 * Compiles a schema as `compileSchema` of `@salvor/tools/dyn` does (its documentation says all of it), with the
 * compiled validator's parts given: imported up front there, loaded apart from the core here.
 *
 * @param schema The schema.
 * @param options As `compileSchema`'s.
 * @param parts What the compiled validator is built with.
 * @param described Whether the schema is a tool descriptor's, as for {@linkcode compileSchemaApart}.
 * @returns The compiled schema; one the compiled validator runs is validated once the parts it needs have loaded.
 * @throws {InvalidSpecError} As `compileSchema` does.
 */
export function compileSchemaWith(
  schema: JsonSchema,
  options: CompileSchemaOptions,
  parts: ValidatorParts,
  described = false,
): CompiledSchema {
  const checked = checkedSchema(schema, options, described);
  return checked.engine === "compiled" ? compiled(checked, parts) : fallback(checked);
}

/**
 * Checks a schema as `compileSchema` does, and keeps nothing: neither validator is built or loaded. For a schema
 * that is only shown, such as the one a tool typed with Valibot derives, which Valibot validates.
 *
 * @param schema The schema.
 * @param options As `compileSchema`'s.
 * @param described Whether the schema is a tool descriptor's, as for {@linkcode compileSchemaApart}.
 * @throws {InvalidSpecError} As `compileSchema` does.
 */
export function checkJsonSchema(schema: JsonSchema, options: CompileSchemaOptions = {}, described = false): void {
  checkedSchema(schema, options, described);
}

/** A schema that passed every check: the validator that runs it, and what that validator reads. */
type CheckedSchema =
  | {
    readonly engine: "compiled";
    readonly label: string;
    readonly draft: JsonSchemaDraft;
    readonly own: JsonSchema;
    readonly checked: CheckedValidator;
  }
  | {
    readonly engine: "fallback";
    readonly label: string;
    readonly draft: JsonSchemaDraft;
    readonly own: JsonSchema;
    readonly remotes: Readonly<Record<string, JsonSchema>>;
    readonly assertFormats: boolean;
  };

function checkedSchema(schema: JsonSchema, options: CompileSchemaOptions, described: boolean): CheckedSchema {
  const label = options.label ?? "schema";
  const limits = options.limits ?? SCHEMA_LIMITS;
  // Private copies, which the validator reads when it is built, on the first validation: nothing can change them
  // in between, so what passes the checks now is what it compiles then. A descriptor's is one already.
  const copy = described && limits === SCHEMA_LIMITS ? asJsonSchema(schema, label) : checkedCopy(schema, label, limits);
  // fromEntries defines own properties: a remote keyed "__proto__" stays a remote.
  const ownRemotes: Record<string, JsonSchema> = Object.fromEntries(
    Object.entries(options.remotes ?? {}).map(([uri, remote]) => [uri, checkedCopy(remote, label, limits, uri)]),
  );
  const maxSchemas = options.budget?.schemaNodes ?? DEFAULT_VALIDATOR_BUDGET.schemaNodes;
  const draft = options.draft ?? draftOf(copy);
  let external: Reference | undefined;
  try {
    external = findExternalReference(copy, ownRemotes, maxSchemas, draft);
  } catch (error) {
    throw error instanceof SchemaRefusal ? specError(error, label) : error;
  }
  if (external) {
    const where = external.remote === undefined
      ? "points outside it"
      : `of its remote "${external.remote}" points outside it and its remotes`;
    throw new InvalidSpecError(
      `Cannot compile the ${label} as "${external.ref}" at ${external.path} ${where}: external references are never fetched`,
      { path: external.path },
    );
  }
  const assertFormats = options.formats === "assert";
  // Any pattern engine but the native one marks the schema untrusted: it never runs on the
  // fallback validator, which has no step budget and backtracks.
  const untrusted = options.patterns !== undefined && options.patterns !== nativePatterns;
  const compiledAs = nearestCompiled(copy, ownRemotes, draft, label, untrusted);
  // Why the fallback runs the schema: the compiled validator's refusal, or a draft it does not compile.
  let why = `the draft ${draft} is not compiled`;
  if (compiledAs.draft === "2020-12" || compiledAs.draft === "7") {
    let refusal: SchemaRefusal;
    try {
      const checked = checkValidator(compiledAs.schema, {
        draft: compiledAs.draft,
        remotes: compiledAs.remotes,
        patterns: options.patterns,
        formats: options.formats,
        budget: options.budget,
        label,
      });
      return { engine: "compiled", label, draft, own: copy, checked };
    } catch (error) {
      if (!(error instanceof SchemaRefusal)) throw error;
      refusal = error;
    }
    // The fallback cannot stand in where it would accept values the schema forbids: a
    // format asked to be asserted that it ignores, or a dynamic reference (compiled in 2020-12 only), which it
    // resolves wrongly (the JSON Schema Test Suite's dynamicRef cases show it).
    const unsound = refusal.reason === "format" || refusal.keyword === "$dynamicRef";
    // A host's schema of an older draft that the compiled validator finds malformed, or with a reference it cannot
    // resolve (draft-04 names schemas by an `id` in any member), runs on the fallback, which reads it as that draft
    // always did; one over the budget, or that would never end, is refused as any other (the fallback has no budget:
    // 2^20 expansions held the host 1.6 s a call).
    const asItsDraft = compiledAs.converted && !untrusted &&
      (refusal.reason === "malformed" || refusal.reason === "reference");
    if ((refusal.kind === "invalid" && !asItsDraft) || unsound || (untrusted && refusal.reason === "pattern")) {
      throw specError(compiledAs.converted && draft === "4" ? inDraft04Words(refusal) : refusal, label);
    }
    why = refusal.message.replace(/^Cannot compile the schema as /, "");
  }
  if (untrusted) {
    throw new InvalidSpecError(
      `Cannot compile the ${label} as it would need the fallback validator (${why}), which has no step budget: untrusted schemas run only on the compiled validator`,
      { path: "" },
    );
  }
  return { engine: "fallback", label, draft, own: copy, remotes: ownRemotes, assertFormats };
}

/** The compiled validator's refusal of a schema as `compileSchema` reports it: the schema named by its label. */
function specError(refusal: SchemaRefusal, label: string): InvalidSpecError {
  const message = refusal.message.replace(/^Cannot compile the schema/, `Cannot compile the ${label}`);
  return new InvalidSpecError(message, { path: refusal.pointer });
}

/**
 * A refusal of a draft-04 schema's converted copy in the words of the schema as written: what the copy calls `$id`
 * is the `id` its author wrote.
 */
function inDraft04Words(refusal: SchemaRefusal): SchemaRefusal {
  const own = (text: string) => text.replace(/\/\$id(?![^\s:,)])/g, "/id").replaceAll('"$id"', '"id"');
  return new SchemaRefusal(
    refusal.kind,
    refusal.reason,
    refusal.keyword === "$id" ? "id" : refusal.keyword,
    own(refusal.pointer),
    own(refusal.message),
  );
}

/** What a schema and its remotes are compiled as: their draft, and each document as that draft reads it. */
interface CompiledAs {
  readonly draft: JsonSchemaDraft;
  readonly schema: JsonSchema;
  readonly remotes: Readonly<Record<string, JsonSchema>>;
  readonly converted: boolean;
}

/**
 * The draft and documents a schema is compiled as: a draft-04, draft-06 or 2019-09 one as the nearest compiled draft
 * where its keywords mean the same there, so that its patterns run on the engine and its validation under the budget,
 * and with it each remote that declares no other draft; the others as they are. Where they do not, an untrusted schema
 * is refused, and the host's own is left to the fallback.
 */
function nearestCompiled(
  schema: JsonSchema,
  remotes: Readonly<Record<string, JsonSchema>>,
  draft: JsonSchemaDraft,
  label: string,
  untrusted: boolean,
): CompiledAs {
  const asGiven: CompiledAs = { draft, schema, remotes, converted: false };
  if (!isNearDraft(draft) || typeof schema !== "object") return asGiven;
  const nearest = asNearestDraft(schema, draft);
  let differing = nearest.ok ? undefined : nearest;
  const nearRemotes = Object.entries(remotes).map(([uri, remote]): [string, JsonSchema] => {
    if (differing || typeof remote !== "object" || remoteDraft(remote, draft) !== draft) {
      return [uri, remote];
    }
    const near = asNearestDraft(remote, draft);
    if (!near.ok) differing = { ...near, path: `${uri}#${near.path}` };
    return [uri, near.ok ? near.schema : remote];
  });
  // fromEntries defines own properties: a remote keyed "__proto__" stays a remote.
  if (nearest.ok && !differing) return { ...nearest, remotes: Object.fromEntries(nearRemotes), converted: true };
  if (!untrusted || !differing) return asGiven;
  throw new InvalidSpecError(
    `Cannot compile the ${label} as draft ${
      nearestDraftOf(draft)
    }, which untrusted schemas of draft ${draft} are compiled as: "${differing.keyword}" at ${
      differing.path === "" ? "the root" : differing.path
    } means something else there`,
    { path: appendPointer(differing.path, differing.keyword) },
  );
}

/**
 * A schema the compiled validator runs: checked now, its closures built on its first validation, once what builds
 * them has loaded, with the format scanners for a schema that asserts a format, and, for a host's own schema with
 * patterns, the engine they run on (with re2js when one could backtrack for long).
 */
function compiled(
  { label, draft, own, checked }: CheckedSchema & { readonly engine: "compiled" },
  parts: ValidatorParts,
): CompiledSchema {
  const sources = checked.hostPatterns;
  const needs = "the compiled validator and the parts it needs have";
  if (sources.length === 0 && !checked.assertsFormats) {
    // The shared handle, as most schemas need nothing more: a joined one of its own costs a registered tool about
    // 0.8 KB of heap, a third of what it holds.
    return builtApart(label, draft, "compiled", own, parts.build, needs, (build) => {
      const validator = build(checked);
      return (value) => answer(validator, value);
    });
  }
  const patterns: Apart<HostEngineParts> = sources.length === 0
    ? NO_HOST_PATTERNS
    : joined(parts.hostPatterns, parts.re2, (host) => host.needsRe2(sources));
  const scanners = checked.assertsFormats ? parts.scanners : NO_SCANNERS;
  const all = joined(parts.build, joined(scanners, patterns));
  return builtApart(label, draft, "compiled", own, all, needs, ([build, [formats, [host, re2]]]) => {
    const validator = build(
      host === null ? checked : { ...checked, patterns: host.hostPatterns(re2) },
      formats ?? undefined,
    );
    return (value) => answer(validator, value);
  });
}

/** For a schema that asserts no format: no scanners, and nothing to load. */
const NO_SCANNERS: Apart<FormatScanners | null> = present(null);

/** What the engine for a host schema's patterns is made of: none for a schema with no such pattern. */
type HostEngineParts = readonly [typeof HostPatterns | null, HostPatterns.CompileRe2 | undefined];

/** For a schema with no host patterns: no engine, and nothing to load. */
const NO_HOST_PATTERNS: Apart<HostEngineParts> = present([null, undefined]);

/** The compiled validator's answer: a valid value by the boolean check alone, a failing one walked again for diagnostics. */
function answer(validator: CompiledValidator, value: unknown): SchemaValidation {
  if (validator.isValid(value)) return VALID;
  // Built field by field: a spread of the report costs more than the rest of this function.
  const { diagnostics, omitted } = boundDiagnostics(validator.diagnoseRefused(value));
  return { ok: false, diagnostics, omitted };
}

/** A schema the fallback validates: cfworker compiles it on its first validation, once it has loaded. */
function fallback(
  { label, draft, own, remotes, assertFormats }: CheckedSchema & { readonly engine: "fallback" },
): CompiledSchema {
  return builtApart(label, draft, "fallback", own, FALLBACK, "the fallback validator it needs has", (compile) => {
    let validate: (value: unknown) => SchemaValidation;
    try {
      validate = compile(own, draft, remotes, assertFormats, (remote) => remoteDraft(remote, draft));
    } catch (error) {
      // What cfworker finds only as it reads the schema (a duplicate schema URI) is found now: the schema is at fault.
      throw new InvalidSpecError(`Cannot compile the ${label}: ${messageOfThrown(error)}`, { path: "" });
    }
    return (value) => {
      try {
        return validate(value);
      } catch (error) {
        // A schema that applies itself again to the same value overflows the stack: the schema is at fault.
        throw stackAsBudget(error, label, 0);
      }
    };
  });
}

/**
 * A schema whose validator is built from a part that loads apart from the
 * core (or was imported up front, and so has loaded). Loading starts now, so
 * that the first validation seldom waits; the validator is built on the
 * first validation after it has loaded.
 */
function builtApart<T>(
  label: string,
  draft: JsonSchemaDraft,
  engine: SchemaEngine,
  own: JsonSchema,
  part: Apart<T>,
  needs: string,
  build: (loaded: T) => (value: unknown) => SchemaValidation,
): CompiledSchema {
  // A failed load is reported by `loading` and `validate` (and never as an unhandled rejection: see `apart`).
  if (part.loaded === undefined) void part.load();
  let validate: ((value: unknown) => SchemaValidation) | undefined;
  return new Compiled(draft, engine, own, (value) => {
    if (validate === undefined) {
      const loaded = part.loaded;
      if (loaded === undefined) {
        throw new TypeError(`Cannot validate against the ${label} as ${needs} not loaded: await its loading first`);
      }
      validate = build(loaded);
    }
    return validate(value);
  }, part);
}

/** A compiled schema over its private copy, which only its validator reads. */
class Compiled implements CompiledSchema {
  readonly draft: JsonSchemaDraft;
  readonly engine: SchemaEngine;
  readonly #own: JsonSchema;
  readonly #validate: (value: unknown) => SchemaValidation;
  #part: Apart<unknown> | undefined;
  #shown: JsonSchema | undefined;

  constructor(
    draft: JsonSchemaDraft,
    engine: SchemaEngine,
    own: JsonSchema,
    validate: (value: unknown) => SchemaValidation,
    part?: Apart<unknown>,
  ) {
    this.draft = draft;
    this.engine = engine;
    this.#own = own;
    this.#validate = validate;
    this.#part = part;
  }

  /** A frozen copy of the private one, made when first read. */
  get schema(): JsonSchema {
    return this.#shown ??= deepFreeze(structuredClone(this.#own));
  }

  get loading(): Promise<void> | undefined {
    const part = this.#part;
    if (part === undefined) return undefined;
    if (part.loaded === undefined) return part.load();
    // Read on every validation: once loaded, it is not asked again.
    this.#part = undefined;
    return undefined;
  }

  validate(value: unknown): SchemaValidation {
    return this.#validate(value);
  }
}

const VALID: SchemaValidation = Object.freeze({ ok: true });
