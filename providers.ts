/**
 * Provider projections: a tool's descriptor in the shape each model
 * provider accepts (OpenAI in strict mode or not, for Chat Completions and
 * Responses; Anthropic; Gemini; MCP), with every change the provider's
 * JSON Schema subset forced listed as a warning. Pure functions, no IO; an
 * entrypoint of their own so that a runtime that does not use them does not
 * ship them (the core bundle stays small).
 *
 * A call answered by a model that was shown the OpenAI strict projection is
 * dispatched with `{ projection: openAIStrict }`, so the `null` the model
 * writes for a left-out optional property reads as absent again.
 *
 * @example Show a tool to OpenAI in strict mode and dispatch its answer
 * ```ts
 * import { defineTool, ToolSet } from "@salvor/tools";
 * import { openAIStrict, toOpenAITool } from "@salvor/tools/providers";
 * import * as v from "valibot";
 * import assert from "node:assert/strict";
 *
 * const search = defineTool({
 *   name: "search",
 *   description: "Search the notes.",
 *   inputSchema: v.object({ query: v.string(), limit: v.optional(v.number()) }),
 *   effects: ["fs.read"],
 *   run: ({ query, limit }) => ({ query, limit: limit ?? 10 }),
 * });
 * const { tool, warnings } = toOpenAITool(search.descriptor, { strict: true });
 * assert.equal(tool.function.strict, true);
 * assert.deepEqual(tool.function.parameters.required, ["query", "limit"]);
 * // v.object lets unknown keys through; strict mode cannot, and says so.
 * assert.deepEqual(warnings.map((w) => w.path), ["/inputSchema/additionalProperties"]);
 *
 * const end = await new ToolSet().register(search).call(
 *   { id: "call_1", name: "search", arguments: '{"query":"mcp","limit":null}' },
 *   { projection: openAIStrict },
 * );
 * assert.deepEqual(end.type === "output" && end.result.output, { query: "mcp", limit: 10 });
 * ```
 *
 * @module
 */

export * from "./src/providers/projection.ts";
export * from "./src/providers/openai/tools.ts";
export * from "./src/providers/anthropic/tools.ts";
export * from "./src/providers/gemini/tools.ts";
export * from "./src/providers/mcp.ts";
export * from "./src/providers/calls.ts";
export * from "./src/providers/results.ts";
export * from "./src/providers/openai/chat.ts";
export * from "./src/providers/openai/responses.ts";
export * from "./src/providers/anthropic/messages.ts";
export * from "./src/providers/gemini/contents.ts";
