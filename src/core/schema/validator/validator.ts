/**
 * A JSON Schema validator compiled once into a tree of closures: no `eval`,
 * no code built from strings, so it runs wherever code generation is forbidden.
 * Schemas it does not implement are refused as `unsupported`, for the caller
 * to validate with cfworker instead.
 *
 * @module
 */

import type { Diagnostic } from "../../common/diagnostics.ts";
import { DEFAULT_VALIDATOR_BUDGET, type ValidatorBudget } from "./budget.ts";
import { nativePatterns, type PatternEngine } from "./patterns.ts";
import { SchemaRefusal } from "./refusal.ts";
import { Compiler } from "./_compile.ts";
import type { Draft } from "./_keywords.ts";
import type { Node, Runtime } from "./_node.ts";
import { createRegistry, indexDocument, resolveUri, ROOT_BASE } from "./_refs.ts";

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
  /** `"annotate"` (default, as 2020-12 says) ignores `format`; `"assert"` checks the common formats. */
  readonly formats?: "annotate" | "assert";
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
   * Walks a value again to say what is wrong with it: at most
   * `maxDiagnostics`, unsorted (sort and bound them with `boundDiagnostics`).
   *
   * @param value The value `isValid` refused.
   * @returns The diagnostics; empty for a valid value.
   * @throws {SchemaBudgetError} When the value takes more steps than the budget.
   */
  diagnose(value: unknown): Diagnostic[];
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
 * Compiles a JSON Schema (2020-12 or draft-07) into a validator.
 *
 * @param schema The schema: an object or a boolean. It is read, never changed, and must not change afterwards.
 * @param options Draft, remotes, pattern engine, format assertion, budget.
 * @returns The compiled validator.
 * @throws {SchemaRefusal} With kind `unsupported` for a keyword, pattern,
 * format, draft or reference this validator does not handle (validate with
 * cfworker instead), or kind `invalid` for a malformed schema, one nested
 * deeper than 64 schemas, or one whose expansion exceeds the budget.
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
  const budget = { ...DEFAULT_VALIDATOR_BUDGET, ...options.budget };
  const registry = createRegistry();
  for (const [uri, remote] of Object.entries(options.remotes ?? {})) {
    const base = resolveUri(uri, ROOT_BASE)?.replace(/#.*$/, "") ?? uri;
    indexDocument(remote, base, `${uri}#`, draft, registry);
  }
  indexDocument(schema, ROOT_BASE, "", draft, registry);
  const runtime: Runtime = { steps: 0, limit: budget.stepsPerValue, label: options.label ?? "schema" };
  const compiler = new Compiler({
    draft,
    registry,
    patterns: options.patterns ?? nativePatterns,
    assertFormats: options.formats === "assert",
    runtime,
    maxNodes: budget.compiledNodes,
    draftOf: (uri) => draftOf(uri),
  });
  const root = compiler.compile(schema, registry.bases.get(schema as object) ?? ROOT_BASE, "");
  const { size, depth } = measure(root, budget.compiledNodes);
  if (size > budget.compiledNodes) {
    throw new SchemaRefusal(
      "invalid",
      "budget",
      "$ref",
      "",
      `Cannot compile the schema as its references expand to more than ${budget.compiledNodes} schemas`,
    );
  }
  if (depth > MAX_REFERENCE_DEPTH) {
    throw new SchemaRefusal(
      "invalid",
      "depth",
      "$ref",
      "",
      `Cannot compile the schema as its references nest deeper than ${MAX_REFERENCE_DEPTH} schemas`,
    );
  }
  const check = root.check;
  const maxDiagnostics = options.maxDiagnostics ?? 64;
  return {
    draft,
    isValid(value: unknown): boolean {
      runtime.steps = 0;
      return check(value, undefined);
    },
    diagnose(value: unknown): Diagnostic[] {
      runtime.steps = 0;
      const sink = { out: [] as Diagnostic[], max: maxDiagnostics };
      root.report(value, "", sink, undefined);
      return sink.out;
    },
  };
}

// Validation recurses once per schema it nests into, references included:
// this bound keeps the stack well within the engine's limit.
const MAX_REFERENCE_DEPTH = 500;

/**
 * The size the schema would have with every `$ref` inlined, counting a
 * reference back into itself once, and its deepest nesting; counted without
 * recursion and stopped past `cap`, so an exponential expansion costs no
 * more than `cap`.
 */
function measure(root: Node, cap: number): { size: number; depth: number } {
  const sizes = new Map<Node, number>();
  const depths = new Map<Node, number>();
  const open = new Set<Node>([root]);
  const stack: [Node, number][] = [[root, 0]];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const [node, next] = top;
    if (next < node.children.length) {
      top[1]++;
      const child = node.children[next];
      if (!sizes.has(child) && !open.has(child)) {
        open.add(child);
        stack.push([child, 0]);
      }
      continue;
    }
    let size = 1;
    let depth = 1;
    for (const child of node.children) {
      const closed = !open.has(child);
      size = Math.min(size + (closed ? sizes.get(child)! : 1), cap + 1);
      if (closed) depth = Math.max(depth, depths.get(child)! + 1);
    }
    sizes.set(node, size);
    depths.set(node, depth);
    open.delete(node);
    stack.pop();
  }
  return { size: sizes.get(root)!, depth: depths.get(root)! };
}
