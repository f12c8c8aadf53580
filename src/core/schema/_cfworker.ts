// The fallback validator: `@cfworker/json-schema`, for the schemas the
// compiled validator does not implement (drafts other than 2020-12 and
// draft-07, `$dynamicRef`, `$recursiveRef`), and as the oracle its tests
// compare with. Its errors are normalised to the core's diagnostics.

import { type OutputUnit, type Schema, Validator } from "@cfworker/json-schema";
import { boundDiagnostics, type Diagnostic, type DiagnosticReport } from "../common/diagnostics.ts";
import { appendPointer } from "../common/_json_pointer.ts";
import { walkReachable } from "./_subschemas.ts";

/** What the fallback says of one value: valid, or the bounded diagnostics. */
export type FallbackVerdict = { readonly ok: true } | ({ readonly ok: false } & DiagnosticReport);

/**
 * Compiles a schema with cfworker. cfworker always asserts `format`, so when
 * formats are annotations its copies lose their `format` keywords.
 *
 * @throws {Error} cfworker's own error for a schema it cannot read.
 */
export function compileFallback(
  schema: unknown,
  draft: "2020-12" | "2019-09" | "7" | "6" | "4",
  remotes: Readonly<Record<string, unknown>>,
  assertFormats: boolean,
  remoteDraft: (remote: unknown) => string = () => draft,
): (value: unknown) => FallbackVerdict {
  // cfworker annotates the schemas it is given, so it gets private copies. It reads no draft-06, which differs from
  // draft-07 only in ignoring `if`/`then`/`else`: a draft-06 copy loses them and is read as draft-07. A remote is of
  // the draft `remoteDraft` says.
  const own = (document: unknown, asDraft06: boolean) => {
    const copy = structuredClone(document);
    if (!assertFormats || asDraft06) {
      walkReachable(copy, (node) => {
        if (!assertFormats && typeof node.format === "string") delete node.format;
        if (!asDraft06) return;
        for (const keyword of DRAFT_07_CONDITIONALS) delete node[keyword];
      });
    }
    return copy as Schema;
  };
  const validator = new Validator(own(schema, draft === "6"), draft === "6" ? "7" : draft, false);
  for (const [uri, remote] of Object.entries(remotes)) {
    validator.addSchema(own(remote, remoteDraft(remote) === "6"), uri);
  }
  return (value) => {
    let result;
    try {
      result = validator.validate(value);
    } catch (error) {
      // A stack overflow is the schema's fault, for the caller to report so.
      if (error instanceof RangeError) throw error;
      // cfworker throws on a reference it cannot resolve at validation time.
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, diagnostics: [{ path: "", keyword: "$ref", message }], omitted: 0 };
    }
    if (result.valid) return VALID;
    return { ok: false, ...boundDiagnostics(diagnosticsFromCfworker(result.errors)) };
  };
}

const VALID = Object.freeze({ ok: true as const });

/**
 * The keywords draft-07 added that draft-06 ignores, as `DRAFT_07_CONDITIONALS` of `_nearest_draft.ts` lists them:
 * written again so that this module, loaded apart, imports nothing of the core's up-front code (importing that list
 * made the bundler share it across chunks, 112 bytes more up front).
 */
const DRAFT_07_CONDITIONALS = ["if", "then", "else"] as const;

// cfworker reports a failing applicator and then the failures inside it; the
// inner ones say what is wrong, so the wrappers are dropped. (Not `contains`:
// it reports no item's failure, only that none matched.)
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
const DEPENDENT_PROPERTY = /^Instance has "(.*)" but does not have "(.*)"\.$/;

function instancePointer(location: string): string {
  // cfworker writes `#` or `#/a/b`, percent-encoding nothing beyond RFC 6901.
  return location.startsWith("#") ? location.slice(1) : location;
}

/** Keywords whose next token in a keyword location is a name, not a keyword. */
const NAMING_KEYWORDS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);

/**
 * Whether a keyword location is inside a `contains`: cfworker reports why each item failed it, but an item that does
 * not match `contains` is no failure of the array (the count of those that do is reported on its own).
 */
function withinContains(keywordLocation: string): boolean {
  const tokens = keywordLocation.split("/");
  for (let i = 1; i < tokens.length - 1; i++) {
    if (NAMING_KEYWORDS.has(tokens[i])) i++;
    else if (tokens[i] === "contains") return true;
  }
  return false;
}

/** Turns cfworker's output units into diagnostics with JSON Pointer paths. */
function diagnosticsFromCfworker(errors: readonly OutputUnit[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  errors.forEach((unit, i) => {
    if (withinContains(unit.keywordLocation)) return;
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
    // A property dependency (`dependencies`' array form, `dependentRequired`) has nothing inside it to say why.
    const dependency = DEPENDENT_PROPERTY.exec(unit.error);
    if (dependency && (unit.keyword === "dependencies" || unit.keyword === "dependentRequired")) {
      const [, trigger, name] = dependency;
      diagnostics.push({
        path: appendPointer(path, name),
        keyword: unit.keyword,
        message: `Missing property "${name}", required when "${trigger}" is present.`,
      });
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
