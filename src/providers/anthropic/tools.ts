/**
 * The Anthropic projection: a descriptor as a Messages API client tool.
 *
 * @module
 */

import type { Projection } from "../projection.ts";
import type { ToolDescriptor } from "../../core/contract/spec.ts";
import { checkDescriptor, Findings, type KeywordTable, projectKeywords, type SchemaNode } from "../_projection.ts";

/** An Anthropic Messages API client tool. */
export interface AnthropicTool {
  /** The tool's name. */
  name: string;
  /** What the tool does. */
  description: string;
  /** The JSON Schema (Draft 2020-12) of the tool's input. */
  input_schema: { type: "object"; [keyword: string]: unknown };
}

// The rules for `input_schema`, from "Specifying client tools" in
// https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use
// (a JSON Schema, Draft 2020-12, whose root is an object). The API refuses a
// root that combines schemas ("input_schema does not support oneOf, allOf,
// or anyOf at the top level"), so those three are dropped from the root with
// a warning; dispatch still checks them. Everything else, and everything
// below the root, is sent as it is.
const COMBINED_AT_ROOT = "the Messages API refuses it at the root of input_schema; dispatch still checks it";
const ROOT_TABLE: KeywordTable = {
  rules: {
    anyOf: { drop: COMBINED_AT_ROOT },
    oneOf: { drop: COMBINED_AT_ROOT },
    allOf: { drop: COMBINED_AT_ROOT },
  },
  otherwise: "keep",
};

/**
 * Projects a tool for Anthropic's Messages API: `{ name, description,
 * input_schema }`. The schema is sent as it is, save for what the API
 * refuses at its root, which is listed in the warnings.
 *
 * @param descriptor The tool's descriptor.
 * @returns The Anthropic tool and the warnings.
 * @throws {TypeError} When `descriptor` is not a descriptor.
 *
 * @example
 * ```ts
 * import { describeTool } from "@salvor/tools/dyn";
 * import { toAnthropicTool } from "@salvor/tools/providers";
 * import assert from "node:assert/strict";
 *
 * const descriptor = describeTool({
 *   name: "read_file",
 *   description: "Read a UTF-8 text file.",
 *   inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
 *   effects: ["fs.read"],
 * });
 * const { tool, warnings } = toAnthropicTool(descriptor);
 * assert.equal(tool.name, "read_file");
 * assert.deepEqual(tool.input_schema.required, ["path"]);
 * assert.deepEqual(warnings, []);
 * ```
 */
export function toAnthropicTool(descriptor: ToolDescriptor): Projection<AnthropicTool> {
  checkDescriptor(descriptor, "Anthropic");
  const findings = new Findings();
  const inputSchema = projectKeywords(
    descriptor.inputSchema as SchemaNode,
    "/inputSchema",
    ROOT_TABLE,
    findings,
    (child) => child,
  );
  return {
    tool: {
      name: descriptor.name,
      description: descriptor.description,
      input_schema: { ...inputSchema, type: "object" },
    },
    warnings: findings.warnings,
  };
}
