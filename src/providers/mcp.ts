/**
 * The MCP projection: a descriptor as a Model Context Protocol `Tool`,
 * with annotations derived from its declared effects.
 *
 * @module
 */

import { type Effect, isReadOnly, resolveSemantics } from "../core/contract/effect.ts";
import type { Projection, ProjectionWarning } from "./projection.ts";
import type { ToolDescriptor } from "../core/contract/spec.ts";
import { checkDescriptor } from "./_projection.ts";
import { isRecord } from "../core/common/_is_record.ts";

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
 * `openWorldHint`). MCP carries only object output schemas, so any other
 * output schema is left out with a warning.
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
  };
  return { tool, warnings };
}
