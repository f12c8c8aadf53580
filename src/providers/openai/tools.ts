/**
 * The OpenAI projection: a descriptor as a Chat Completions or Responses
 * function tool, in strict mode (Structured Outputs) or not.
 *
 * @module
 */

import { type Projection, ProjectionError, type ProjectionWarning } from "../projection.ts";
import type { ToolDescriptor } from "../../core/contract/spec.ts";
import type { ArgumentsProjection } from "../../core/dispatch/tool_call.ts";
import { strictSchemaOf } from "./_strict_schema.ts";
import { checkDescriptor } from "../_projection.ts";
import { restoreStrictArguments } from "./_strict_restore.ts";

/** Which OpenAI API the tool is for: they nest the function differently. */
export type OpenAIApi = "chat_completions" | "responses";

/** What to do when strict mode cannot express the schema faithfully. */
export type OnUnsupported = "error" | "non_strict";

/** Options for {@linkcode toOpenAITool}. */
export interface OpenAIToolOptions<Api extends OpenAIApi = OpenAIApi> {
  /** Strict mode (Structured Outputs): the model's arguments always match the schema. Default `true`. */
  readonly strict?: boolean;
  /** `chat_completions` (the default) or `responses`. */
  readonly api?: Api;
  /**
   * When strict mode cannot express the schema: `error` (the default)
   * throws a {@linkcode ProjectionError}; `non_strict` sends the schema
   * unchanged with `strict: false` and lists every reason in the warnings.
   */
  readonly onUnsupported?: OnUnsupported;
}

/** The function of a Chat Completions tool. */
export interface OpenAIFunctionDefinition {
  /** The tool's name. */
  name: string;
  /** What the tool does. */
  description: string;
  /** The JSON Schema of the arguments. */
  parameters: { [keyword: string]: unknown };
  /** Whether strict mode is on. */
  strict: boolean;
}

/** A Chat Completions function tool. */
export interface OpenAIChatTool {
  /** Always `function`. */
  type: "function";
  /** The function. */
  function: OpenAIFunctionDefinition;
}

/** A Responses API function tool. */
export interface OpenAIResponsesTool extends OpenAIFunctionDefinition {
  /** Always `function`. */
  type: "function";
}

/** The tool shape for an API. */
export type OpenAITool<Api extends OpenAIApi> = Api extends "responses" ? OpenAIResponsesTool : OpenAIChatTool;

/**
 * Projects a tool for OpenAI: a Chat Completions tool
 * (`{ type: "function", function: {...} }`) or, with `api: "responses"`,
 * a Responses API tool (`{ type: "function", name, ... }`).
 *
 * Strict mode (the default) rewrites the schema the way Structured Outputs
 * requires: every property required, optional ones made nullable (one that
 * already accepts `null`, or whose schema cannot be told to refuse it, is
 * left as it is, with a warning that it can no longer be left out),
 * `additionalProperties: false` on every object, `const` as a one-value
 * `enum`. Dispatch turns the `null` a strict model sends for a left-out
 * property back into absence when the call is made with
 * `{ projection: openAIStrict }`. A schema strict mode cannot express
 * (an open map, `patternProperties`, a tuple, ...) is either an error or,
 * with `onUnsupported: "non_strict"`, sent unchanged without strict mode;
 * either way every reason comes with its path.
 *
 * @param descriptor The tool's descriptor.
 * @param options `strict` (default `true`), `api` (default `chat_completions`) and `onUnsupported` (default `error`).
 * @returns The OpenAI tool and the warnings.
 * @throws {ProjectionError} When strict mode cannot express the schema and `onUnsupported` is `error`.
 * @throws {TypeError} When `descriptor` is not a descriptor or `api` is unknown.
 *
 * @example Optional properties become required and nullable
 * ```ts
 * import { describeTool } from "@salvor/tools/dyn";
 * import { toOpenAITool } from "@salvor/tools/providers";
 * import assert from "node:assert/strict";
 *
 * const descriptor = describeTool({
 *   name: "search",
 *   description: "Searches the docs.",
 *   inputSchema: {
 *     type: "object",
 *     properties: { query: { type: "string" }, limit: { type: "integer" } },
 *     required: ["query"],
 *     additionalProperties: false,
 *   },
 *   effects: ["external.read"],
 * });
 * const { tool, warnings } = toOpenAITool(descriptor, { api: "responses" });
 * assert.equal(tool.strict, true);
 * assert.deepEqual(tool.parameters.required, ["query", "limit"]);
 * assert.deepEqual(tool.parameters.properties, {
 *   query: { type: "string" },
 *   limit: { type: ["integer", "null"] },
 * });
 * assert.deepEqual(warnings, []);
 * ```
 */
export function toOpenAITool<Api extends OpenAIApi = "chat_completions">(
  descriptor: ToolDescriptor,
  options: OpenAIToolOptions<Api> = {},
): Projection<OpenAITool<Api>> {
  checkDescriptor(descriptor, "OpenAI");
  const api = options.api ?? "chat_completions";
  if (api !== "chat_completions" && api !== "responses") {
    throw new TypeError(
      `Cannot project for OpenAI as api must be "chat_completions" or "responses": current value is ${
        JSON.stringify(api)
      }`,
    );
  }
  const onUnsupported = options.onUnsupported ?? "error";
  let parameters = structuredClone(descriptor.inputSchema) as { [keyword: string]: unknown };
  let strict = false;
  let warnings: ProjectionWarning[] = [];
  if (options.strict ?? true) {
    const projected = strictSchemaOf(descriptor.inputSchema);
    if (projected.schema) {
      parameters = structuredClone(projected.schema);
      strict = true;
      warnings = [...projected.warnings];
    } else if (onUnsupported === "error") {
      const [first] = projected.problems;
      const more = projected.problems.length > 1 ? ` (and ${projected.problems.length - 1} more problems)` : "";
      throw new ProjectionError(
        `Cannot project "${descriptor.name}" for OpenAI strict mode as ${first.path}: ${first.message}${more}`,
        projected.problems,
      );
    } else {
      warnings = [
        ...projected.problems,
        {
          path: "/inputSchema",
          keyword: "strict",
          message: "Sent without strict mode, with the schema unchanged, as strict mode cannot express it",
        },
      ];
    }
  }
  const definition: OpenAIFunctionDefinition = {
    name: descriptor.name,
    description: descriptor.description,
    parameters,
    strict,
  };
  const tool = api === "responses" ? { type: "function" as const, ...definition } : {
    type: "function" as const,
    function: definition,
  };
  return { tool: tool as OpenAITool<Api>, warnings };
}

/**
 * Reads back what a model shown a strict projection sent: the `null` it
 * writes for each optional property strict mode made nullable becomes
 * absent again (only where the tool's own schema certainly refuses `null`,
 * and, for a value that fits several union branches, every one of them
 * does, so no valid value changes meaning). Pass it as a call's
 * `projection`.
 *
 * @example Dispatch a strict model's call
 * ```ts
 * import { defineJsonTool, ToolSet } from "@salvor/tools";
 * import { openAIStrict } from "@salvor/tools/providers";
 * import assert from "node:assert/strict";
 *
 * const search = defineJsonTool({
 *   name: "search",
 *   description: "Searches the docs.",
 *   inputSchema: {
 *     type: "object",
 *     properties: { query: { type: "string" }, limit: { type: "integer" } },
 *     required: ["query"],
 *   },
 *   effects: ["external.read"],
 *   run: (input) => input,
 * });
 * const end = await new ToolSet().register(search).call(
 *   { id: "1", name: "search", arguments: '{"query":"mcp","limit":null}' },
 *   { projection: openAIStrict },
 * );
 * assert.deepEqual(end.type === "output" && end.result.output, { query: "mcp" });
 * ```
 */
export const openAIStrict: ArgumentsProjection = Object.freeze({
  name: "openai-strict",
  restore: restoreStrictArguments,
});
