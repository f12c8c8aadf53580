/**
 * JSON Schema compilation and validation through `@cfworker/json-schema`,
 * which needs no `eval` and so runs on edge runtimes.
 *
 * @module
 */

import { type OutputUnit, type Schema, Validator } from "@cfworker/json-schema";
import { boundDiagnostics, type Diagnostic, type DiagnosticReport } from "../common/diagnostics.ts";
import { InvalidSpecError } from "../common/errors.ts";
import { checkJsonValue, DEFAULT_LIMITS, type JsonLimits } from "../common/limits.ts";
import { appendPointer } from "../common/_json_pointer.ts";
import { messageOfThrown } from "../common/_describe_thrown.ts";

/** A JSON Schema: an object or a boolean, as JSON carries it. */
export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

/** The JSON Schema drafts a schema can be validated as. */
export type JsonSchemaDraft = "2020-12" | "2019-09" | "7" | "4";

/** Options for {@linkcode compileSchema}. */
export interface CompileSchemaOptions {
  /**
   * Schemas a `$ref` may point to by absolute URI, registered from memory;
   * nothing is ever fetched. Keyed by the URI a `$ref` resolves to. Each is
   * checked as the schema is.
   */
  readonly remotes?: Readonly<Record<string, JsonSchema>>;
  /** The draft to validate as; read from `$schema` when absent, else 2020-12. */
  readonly draft?: JsonSchemaDraft;
  /** The size and depth bounds on the schema and on each value validated. */
  readonly limits?: JsonLimits;
  /** Names the schema in error messages, e.g. `inputSchema`. */
  readonly label?: string;
}

/** The result of validating a value: valid, or the bounded diagnostics. */
export type SchemaValidation =
  | { readonly ok: true }
  | ({ readonly ok: false } & DiagnosticReport);

/** The result of parsing untrusted arguments or an output: the value to use, or the bounded diagnostics. */
export type ParseResult =
  | { readonly ok: true; readonly value: unknown }
  | ({ readonly ok: false } & DiagnosticReport);

/** A schema checked and compiled once, ready to validate many values. */
export interface CompiledSchema {
  /** The draft the schema is validated as. */
  readonly draft: JsonSchemaDraft;
  /** The schema as compiled: a private deep copy of the one given. */
  readonly schema: JsonSchema;
  /**
   * Validates a value that is already known to be plain JSON data.
   *
   * @param value The value; it is not changed.
   * @returns Valid, or at most 16 sorted diagnostics.
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
  if (declared.includes("draft-04")) return "4";
  if (declared.includes("2019-09")) return "2019-09";
  return "2020-12";
}

// Keywords whose value is a schema, an array of schemas, or a map of schemas.
// Everything else (const, enum, default, examples, ...) is data and not walked.
const SCHEMA_VALUED = new Set([
  "additionalItems",
  "unevaluatedItems",
  "items",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
]);
const SCHEMA_ARRAYS = new Set([
  "prefixItems",
  "items",
  "allOf",
  "anyOf",
  "oneOf",
]);
const SCHEMA_MAPS = new Set([
  "$defs",
  "definitions",
  "properties",
  "patternProperties",
  "dependentSchemas",
  "dependencies",
]);

// Resolves relative `$id` and `$ref` values without naming any real host.
const ROOT_BASE = "salvor:/root";

function withoutFragment(uri: string): string {
  const hash = uri.indexOf("#");
  return hash === -1 ? uri : uri.slice(0, hash);
}

function resolveUri(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    return undefined;
  }
}

interface Reference {
  readonly ref: string;
  readonly resolved: string | undefined;
  readonly path: string;
  /** The URI of the remote the reference is in; none for the schema itself. */
  readonly remote?: string;
}

/** Collects the schema resources a document (the schema or its `remote`) embeds and every reference it makes. */
function collectReferences(
  schema: unknown,
  base: string,
  path: string,
  resources: Set<string>,
  references: Reference[],
  remote?: string,
): void {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    return;
  }
  const node = schema as Record<string, unknown>;
  if (typeof node.$id === "string") {
    const resolved = resolveUri(node.$id, base);
    if (resolved) {
      base = withoutFragment(resolved);
      resources.add(base);
    }
  }
  for (const keyword of ["$ref", "$dynamicRef", "$recursiveRef"]) {
    const ref = node[keyword];
    if (typeof ref === "string") {
      references.push({
        ref,
        resolved: resolveUri(ref, base),
        path: appendPointer(path, keyword),
        remote,
      });
    }
  }
  for (const [keyword, value] of Object.entries(node)) {
    const at = appendPointer(path, keyword);
    if (SCHEMA_ARRAYS.has(keyword) && Array.isArray(value)) {
      value.forEach((item, i) =>
        collectReferences(
          item,
          base,
          appendPointer(at, String(i)),
          resources,
          references,
          remote,
        )
      );
    } else if (
      SCHEMA_MAPS.has(keyword) && typeof value === "object" && value !== null
    ) {
      for (const [name, item] of Object.entries(value)) {
        collectReferences(
          item,
          base,
          appendPointer(at, name),
          resources,
          references,
          remote,
        );
      }
    } else if (SCHEMA_VALUED.has(keyword)) {
      collectReferences(value, base, at, resources, references, remote);
    }
  }
}

/**
 * Finds the first reference, in the schema or in one of its registered
 * remotes, that points outside that document set. A `$ref` resolving to a
 * resource a document embeds (by `$id`) or to a remote is internal, like
 * one starting with `#`; a remote's own references resolve against its URI.
 */
function findExternalReference(
  schema: JsonSchema,
  remotes: Readonly<Record<string, JsonSchema>>,
): Reference | undefined {
  const resources = new Set([ROOT_BASE]);
  const references: Reference[] = [];
  collectReferences(schema, ROOT_BASE, "", resources, references);
  for (const [uri, remote] of Object.entries(remotes)) {
    // Resolving the URI may normalise it (a host's case, an empty path).
    const base = withoutFragment(resolveUri(uri, ROOT_BASE) ?? uri);
    resources.add(withoutFragment(uri)).add(base);
    collectReferences(remote, base, "", resources, references, uri);
  }
  return references.find(({ resolved }) => resolved === undefined || !resources.has(withoutFragment(resolved)));
}

/** Refuses the schema, or one of its remotes, when it is not bounded JSON or not a JSON Schema. */
function checkDocument(document: unknown, label: string, limits: JsonLimits, remote?: string): void {
  const what = remote === undefined ? "it" : `its remote "${remote}"`;
  const problem = checkJsonValue(document, limits);
  if (problem) {
    throw new InvalidSpecError(
      `Cannot compile the ${label} as ${what} is not bounded JSON: ${problem.message}`,
      { path: problem.path },
    );
  }
  if (
    typeof document !== "boolean" &&
    (typeof document !== "object" || document === null || Array.isArray(document))
  ) {
    throw new InvalidSpecError(
      `Cannot compile the ${label} as a JSON Schema must be an object or a boolean: current value ${
        remote === undefined ? "" : `of ${what} `
      }is ${JSON.stringify(document)}`,
      { path: "" },
    );
  }
}

// cfworker reports a failing applicator and then the failures inside it; the
// inner ones say what is wrong, so the wrappers are dropped.
const WRAPPER_KEYWORDS = new Set([
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedItems",
  "contains",
  "$ref",
  "$dynamicRef",
  "$recursiveRef",
  "allOf",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "dependencies",
]);
const REQUIRED_PROPERTY = /^Instance does not have required property "(.*)"\.$/;

function instancePointer(location: string): string {
  // cfworker writes `#` or `#/a/b`, percent-encoding nothing beyond RFC 6901.
  return location.startsWith("#") ? location.slice(1) : location;
}

/** Turns cfworker's output units into diagnostics with JSON Pointer paths. */
function diagnosticsFromCfworker(errors: readonly OutputUnit[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  errors.forEach((unit, i) => {
    const path = instancePointer(unit.instanceLocation);
    if (unit.keyword === "false") {
      // A `false` schema is usually `additionalProperties: false`, reported by
      // the wrapper just before it.
      const wrapper = errors[i - 1]?.keyword;
      const keyword = wrapper && WRAPPER_KEYWORDS.has(wrapper) ? wrapper : "false";
      const name = path.slice(path.lastIndexOf("/") + 1).replaceAll("~1", "/")
        .replaceAll("~0", "~");
      const message = keyword === "additionalProperties" ||
          keyword === "unevaluatedProperties"
        ? `Property "${name}" is not allowed.`
        : keyword === "additionalItems" || keyword === "unevaluatedItems" ||
            keyword === "items"
        ? "This item is not allowed."
        : "No value is allowed here.";
      diagnostics.push({ path, keyword, message });
      return;
    }
    if (WRAPPER_KEYWORDS.has(unit.keyword)) return;
    const missing = unit.keyword === "required" ? REQUIRED_PROPERTY.exec(unit.error) : null;
    if (missing) {
      diagnostics.push({
        path: appendPointer(path, missing[1]),
        keyword: "required",
        message: `Missing required property "${missing[1]}".`,
      });
      return;
    }
    diagnostics.push({ path, keyword: unit.keyword, message: unit.error });
  });
  return diagnostics;
}

/**
 * Checks and compiles a JSON Schema for validation: it and each of its
 * remotes must be a JSON Schema object (or boolean) within the limits, and
 * every `$ref` must resolve inside them. Compilation reads no file
 * and no network. The schema given is copied, never changed.
 *
 * @param schema The schema.
 * @param options Remotes, draft, limits and a label for messages.
 * @returns The compiled schema.
 * @throws {InvalidSpecError} When the schema or one of its remotes (named by
 * its URI) is too large or deep, not JSON, not a schema, or has an external
 * reference.
 *
 * @example Validate a value and read the diagnostics
 * ```ts
 * import { compileSchema } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * const schema = compileSchema({
 *   type: "object",
 *   properties: { path: { type: "string" } },
 *   required: ["path"],
 * });
 * assert.deepEqual(schema.validate({ path: "a.txt" }), { ok: true });
 * const result = schema.validate({});
 * assert.equal(result.ok, false);
 * if (!result.ok) assert.equal(result.diagnostics[0].path, "/path");
 * ```
 */
export function compileSchema(
  schema: JsonSchema,
  options: CompileSchemaOptions = {},
): CompiledSchema {
  const label = options.label ?? "schema";
  const limits = options.limits ?? DEFAULT_LIMITS;
  checkDocument(schema, label, limits);
  const remotes = options.remotes ?? {};
  for (const [uri, remote] of Object.entries(remotes)) {
    checkDocument(remote, label, limits, uri);
  }
  const external = findExternalReference(schema, remotes);
  if (external) {
    const where = external.remote === undefined
      ? "points outside it"
      : `of its remote "${external.remote}" points outside it and its remotes`;
    throw new InvalidSpecError(
      `Cannot compile the ${label} as "${external.ref}" at ${external.path} ${where}: external references are never fetched`,
      { path: external.path },
    );
  }
  const draft = options.draft ?? draftOf(schema);
  // cfworker annotates the schemas it is given, so it gets private copies.
  const own = structuredClone(schema) as JsonSchema;
  let validator: Validator;
  try {
    validator = new Validator(own as Schema, draft, false);
    for (const [uri, remote] of Object.entries(remotes)) {
      validator.addSchema(structuredClone(remote) as Schema, uri);
    }
  } catch (error) {
    throw new InvalidSpecError(
      `Cannot compile the ${label}: ${messageOfThrown(error)}`,
      { path: "" },
    );
  }
  const copy = structuredClone(schema) as JsonSchema;
  return {
    draft,
    schema: copy,
    validate(value: unknown): SchemaValidation {
      let result;
      try {
        result = validator.validate(value);
      } catch (error) {
        // cfworker throws on a reference it cannot resolve at validation time.
        const message = messageOfThrown(error);
        return {
          ok: false,
          diagnostics: [{ path: "", keyword: "$ref", message }],
          omitted: 0,
        };
      }
      if (result.valid) return VALID;
      return {
        ok: false,
        ...boundDiagnostics(diagnosticsFromCfworker(result.errors)),
      };
    },
  };
}

const VALID: SchemaValidation = Object.freeze({ ok: true });
