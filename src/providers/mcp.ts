/**
 * The MCP projection: a descriptor as a Model Context Protocol `Tool`,
 * with annotations derived from its declared effects.
 *
 * @module
 */

import {
  type Effect,
  type ExecutionSemantics,
  isReadOnly,
  isWellFormedEffect,
  resolveSemantics,
} from "../core/contract/effect.ts";
import { FAILURE_KINDS, type FailureKind, type ToolFailure } from "../core/contract/failure.ts";
import type { Projection, ProjectionWarning } from "./projection.ts";
import { MAX_EFFECTS, SEMANTIC_VALUES, type ToolDescriptor } from "../core/contract/spec.ts";
import { checkDescriptor } from "./_projection.ts";
import { isRecord } from "../core/common/_is_record.ts";
import { listItems, readFields } from "./_turn.ts";

/** MCP tool annotations: hints about what a tool does, for clients. */
export interface McpToolDefinitionAnnotations {
  /** A human title. */
  title?: string;
  /** The tool does not change its environment. */
  readOnlyHint: boolean;
  /** The tool may destroy or overwrite, not only add (meaningful when not read-only). */
  destructiveHint: boolean;
  /** Repeating a call with the same arguments has no further effect. */
  idempotentHint: boolean;
  /** The tool reaches entities outside a closed domain (the web, other systems). */
  openWorldHint: boolean;
}

/** An MCP object schema, as `inputSchema` and `outputSchema` take it. */
export interface McpObjectSchema {
  /** Always `object`. */
  type: "object";
  /** The properties. */
  properties?: { [name: string]: object };
  /** The required property names. */
  required?: string[];
  /** Any other JSON Schema keyword. */
  [keyword: string]: unknown;
}

/** An MCP `Tool`, as a server lists it in `tools/list`. */
export interface McpToolDefinition {
  /** The tool's name. */
  name: string;
  /** A human title. */
  title?: string;
  /** What the tool does. */
  description: string;
  /** The JSON Schema of the arguments. */
  inputSchema: McpObjectSchema;
  /** The JSON Schema of `structuredContent`. */
  outputSchema?: McpObjectSchema;
  /** Hints derived from the declared effects. */
  annotations: McpToolDefinitionAnnotations;
  /** The exact contract, under {@linkcode MCP_CONTRACT_META_KEY}, for clients that trust the server. */
  _meta: { [MCP_CONTRACT_META_KEY]: McpToolContract };
}

/**
 * The `_meta` key of a tool's exact contract. Annotations are four hints
 * and cannot say `fs.read` or `explicit_only`, so a Salvor client that
 * trusts the server reads the effects and semantics from here.
 */
export const MCP_CONTRACT_META_KEY = "salvor/contract";

/** A tool's contract as MCP carries it in `_meta`. */
export interface McpToolContract {
  /** The tool's version. */
  version: string;
  /** The declared effects. */
  effects: Effect[];
  /** The complete semantics. */
  semantics: ExecutionSemantics;
}

/**
 * The `_meta` key of a tool error's failure: its kind, whether trying
 * again may help, whether side effects may have happened, and its code.
 */
export const MCP_FAILURE_META_KEY = "salvor/failure";

/** A failure as MCP carries it in a tool error's `_meta`: everything but the texts and diagnostics. */
export type McpFailureMeta = Pick<ToolFailure, "kind" | "uncertain" | "retryable" | "code">;

/**
 * Reads a tool's contract from an MCP tool's `_meta`, as a Salvor server
 * writes it. What a server sends is untrusted, so anything malformed (an
 * effect listed twice, semantics `describeTool` would refuse, a field that
 * throws as it is read) reads as no contract at all; semantics fields it
 * does not know are left out.
 *
 * @param meta The tool's `_meta`, as listed.
 * @returns The effects and semantics, or `undefined`.
 *
 * @example A contract written by toMcpTool reads back
 * ```ts
 * import { describeTool } from "@salvor/tools/dyn";
 * import { readMcpToolContract, toMcpTool } from "@salvor/tools/providers";
 * import assert from "node:assert/strict";
 *
 * const { tool } = toMcpTool(describeTool({
 *   name: "read", description: "Reads.", inputSchema: { type: "object" }, effects: ["fs.read"],
 * }));
 * assert.deepEqual(readMcpToolContract(tool._meta)?.effects, ["fs.read"]);
 * assert.equal(readMcpToolContract({ "salvor/contract": { effects: "all" } }), undefined);
 * ```
 */
export function readMcpToolContract(meta: unknown): Omit<McpToolContract, "version"> | undefined {
  // Each field and effect is read once, in a guard: one that throws as it is read is malformed, and what was checked
  // is what is returned.
  const contract = readFields(meta, [MCP_CONTRACT_META_KEY])?.[MCP_CONTRACT_META_KEY];
  const read = readFields(contract, ["effects", "semantics"]);
  if (!Array.isArray(read?.effects) || read.effects.length > MAX_EFFECTS || !isRecord(read.semantics)) return undefined;
  const effects = listItems(read.effects);
  const semantics = readFields(read.semantics, Object.keys(SEMANTIC_VALUES));
  // A contract describeTool would refuse reads as none, so the tool is read from its annotations rather than dropped;
  // of the semantics only the known fields are copied, as another (even "__proto__") would be refused.
  if (semantics === undefined || !effects.every(isWellFormedEffect) || new Set(effects).size !== effects.length) {
    return undefined;
  }
  const known: Record<string, string> = {};
  for (const [key, values] of Object.entries(SEMANTIC_VALUES)) {
    const value = semantics[key];
    if (typeof value !== "string" || !values.includes(value)) return undefined;
    known[key] = value;
  }
  if (known.idempotency === "non_idempotent" && known.retry === "automatic") return undefined;
  return { effects, semantics: known as unknown as ExecutionSemantics };
}

/**
 * The `_meta` of a tool error for a failure: its kind, `uncertain`, and
 * `retryable` and `code` when the failure has them.
 *
 * @param failure The failure.
 * @returns The `_meta` to send with the tool error.
 *
 * @example
 * ```ts
 * import { toolFailure } from "@salvor/tools/dyn";
 * import { mcpFailureMeta } from "@salvor/tools/providers";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(mcpFailureMeta(toolFailure("timeout", "slow", { retryable: true })), {
 *   "salvor/failure": { kind: "timeout", uncertain: false, retryable: true },
 * });
 * ```
 */
export function mcpFailureMeta(failure: McpFailureMeta): Record<string, McpFailureMeta> {
  return {
    [MCP_FAILURE_META_KEY]: {
      kind: failure.kind,
      uncertain: failure.uncertain,
      ...(failure.retryable === undefined ? {} : { retryable: failure.retryable }),
      ...(failure.code === undefined ? {} : { code: failure.code }),
    },
  };
}

/**
 * Reads a failure from a tool error's `_meta`, as a Salvor server writes
 * it. Anything malformed (a field that throws as it is read included)
 * reads as no failure.
 *
 * @param meta The tool error's `_meta`.
 * @returns The failure's kind, `uncertain`, `retryable` and `code`, or `undefined`.
 *
 * @example
 * ```ts
 * import { readMcpFailureMeta } from "@salvor/tools/providers";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(readMcpFailureMeta({ "salvor/failure": { kind: "handler", uncertain: false, code: "E1" } }), {
 *   kind: "handler",
 *   uncertain: false,
 *   code: "E1",
 * });
 * assert.equal(readMcpFailureMeta({ "salvor/failure": { kind: "oops" } }), undefined);
 * ```
 */
export function readMcpFailureMeta(meta: unknown): McpFailureMeta | undefined {
  const failure = readFields(meta, [MCP_FAILURE_META_KEY])?.[MCP_FAILURE_META_KEY];
  const read = readFields(failure, ["kind", "uncertain", "retryable", "code"]);
  if (read === undefined || !FAILURE_KINDS.includes(read.kind as FailureKind)) return undefined;
  const { kind, uncertain, retryable, code } = read;
  if (typeof uncertain !== "boolean") return undefined;
  if (retryable !== undefined && typeof retryable !== "boolean") return undefined;
  if (code !== undefined && typeof code !== "string") return undefined;
  return {
    kind: kind as FailureKind,
    uncertain,
    ...(retryable === undefined ? {} : { retryable }),
    ...(code === undefined ? {} : { code }),
  };
}

// The inverse of the MCP mapping in the design (annotations to effects):
// what each known effect says about the tool annotations defined in
// https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool
// (readOnlyHint, destructiveHint, idempotentHint, openWorldHint; the
// protocol's defaults are the cautious ones, so every hint is written out).
// A write may overwrite what was there, which MCP counts as destructive
// ("false" would claim "only additive updates"). An unknown effect claims
// nothing: it gets the protocol's own defaults, destructive and open-world.
const EFFECT_HINTS: Readonly<Record<Effect, { readonly destructive: boolean; readonly openWorld: boolean }>> = {
  "fs.read": { destructive: false, openWorld: false },
  "fs.write": { destructive: true, openWorld: false },
  "fs.delete": { destructive: true, openWorld: false },
  "process.spawn": { destructive: true, openWorld: true },
  "network.request": { destructive: false, openWorld: true },
  "credential.read": { destructive: false, openWorld: false },
  "clipboard.read": { destructive: false, openWorld: false },
  "user.interaction": { destructive: false, openWorld: false },
  "external.read": { destructive: false, openWorld: true },
  "external.mutation": { destructive: true, openWorld: true },
};
const UNKNOWN_EFFECT = { destructive: true, openWorld: true } as const;

function hintsOf(effect: Effect) {
  return Object.hasOwn(EFFECT_HINTS, effect) ? EFFECT_HINTS[effect] : UNKNOWN_EFFECT;
}

/**
 * Projects a tool as an MCP `Tool`: name, title, description, input and
 * output schemas, and annotations derived from the declared effects and
 * semantics (read-only effects give `readOnlyHint`; `fs.write` (which may
 * overwrite), `fs.delete`, `external.mutation`, `process.spawn` and unknown
 * effects give `destructiveHint`; idempotent semantics give `idempotentHint`;
 * `network.request`, `external.*`, `process.spawn` and unknown effects give
 * `openWorldHint`). The exact effects and semantics go in `_meta` under
 * {@linkcode MCP_CONTRACT_META_KEY}. MCP carries only object output
 * schemas, so any other output schema is left out with a warning.
 *
 * @param descriptor The tool's descriptor.
 * @returns The MCP tool and the warnings.
 * @throws {TypeError} When `descriptor` is not a descriptor.
 *
 * @example A deleting tool is marked destructive
 * ```ts
 * import { describeTool } from "@salvor/tools/dyn";
 * import { toMcpTool } from "@salvor/tools/providers";
 * import assert from "node:assert/strict";
 *
 * const descriptor = describeTool({
 *   name: "rm",
 *   title: "Remove a file",
 *   description: "Deletes a file.",
 *   inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
 *   effects: ["fs.delete"],
 * });
 * const { tool } = toMcpTool(descriptor);
 * assert.equal(tool.title, "Remove a file");
 * assert.deepEqual(tool.annotations, {
 *   title: "Remove a file",
 *   readOnlyHint: false,
 *   destructiveHint: true,
 *   idempotentHint: false,
 *   openWorldHint: false,
 * });
 * ```
 */
export function toMcpTool(descriptor: ToolDescriptor): Projection<McpToolDefinition> {
  checkDescriptor(descriptor, "MCP");
  const warnings: ProjectionWarning[] = [];
  const readOnly = isReadOnly(descriptor.effects);
  const hints = descriptor.effects.map(hintsOf);
  const annotations: McpToolDefinitionAnnotations = {
    ...(descriptor.title === undefined ? {} : { title: descriptor.title }),
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && hints.some((hint) => hint.destructive),
    idempotentHint: resolveSemantics(descriptor).idempotency === "idempotent",
    openWorldHint: hints.some((hint) => hint.openWorld),
  };
  const input = structuredClone(descriptor.inputSchema) as McpObjectSchema;
  const output = descriptor.outputSchema;
  let outputSchema: McpObjectSchema | undefined;
  if (isRecord(output) && output.type === "object") {
    outputSchema = structuredClone(output) as McpObjectSchema;
  } else if (output !== undefined) {
    warnings.push({
      path: "/outputSchema",
      keyword: "type",
      message: `Left out the output schema, as MCP structured content must be an object: current value is ${
        JSON.stringify(output).slice(0, 80)
      }`,
    });
  }
  const tool: McpToolDefinition = {
    name: descriptor.name,
    ...(descriptor.title === undefined ? {} : { title: descriptor.title }),
    description: descriptor.description,
    inputSchema: input,
    ...(outputSchema ? { outputSchema } : {}),
    annotations,
    _meta: {
      [MCP_CONTRACT_META_KEY]: {
        version: descriptor.version,
        effects: [...descriptor.effects],
        semantics: resolveSemantics(descriptor),
      },
    },
  };
  return { tool, warnings };
}
