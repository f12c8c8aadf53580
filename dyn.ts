/**
 * The erased tool and the validation plumbing: for those who build a tool
 * type of their own (as `@salvor/tools/mcp` does) or a runtime that needs
 * the pieces the {@linkcode DynTool} path is made of. Most users need only
 * the root entrypoint.
 *
 * @example A tool type of your own, dispatched like any other
 * ```ts
 * import { ToolSet } from "@salvor/tools";
 * import { describeTool, type DynTool } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * const echo: DynTool = {
 *   descriptor: describeTool({
 *     name: "echo",
 *     description: "Echo the text.",
 *     inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
 *     effects: [],
 *   }),
 *   async *execute(invocation) {
 *     yield { type: "output", result: { content: [], output: invocation.input } };
 *   },
 * };
 * const tools = new ToolSet().register(echo);
 * const end = await tools.call({ id: "call_1", name: "echo", arguments: '{"text":"hi"}' });
 * assert.deepEqual(end.type === "output" && end.result.output, { text: "hi" });
 * const bad = await tools.call({ id: "call_2", name: "echo", arguments: "{}" });
 * assert.equal(bad.type === "failed" && bad.failure.kind, "invalid_input");
 * ```
 *
 * @module
 */

export { type DynTool, ValidatedInvocation } from "./src/core/contract/dyn.ts";
export { describeTool } from "./src/core/contract/spec.ts";
export { effectWarnings, isKnownEffect, isWellFormedEffect, resolveSemantics } from "./src/core/contract/effect.ts";
export {
  boundModelText,
  failureFromThrown,
  MAX_MODEL_TEXT,
  toolFailure,
  type ToolFailureOptions,
} from "./src/core/contract/failure.ts";
export { toToolResult } from "./src/core/contract/result.ts";
export { compileSchema } from "./src/core/schema/compile_schema.ts";
export {
  type CompiledSchema,
  type CompileSchemaOptions,
  draftOf,
  type JsonSchemaDraft,
  type ParseResult,
  type SchemaEngine,
  type SchemaValidation,
} from "./src/core/schema/schema.ts";
export type { CompiledPattern, PatternCost, PatternEngine } from "./src/core/schema/validator/patterns.ts";
export { DEFAULT_PATTERN_COST, nativePatterns } from "./src/core/schema/validator/patterns.ts";
export { linearPatterns } from "./src/core/schema/validator/linear_patterns.ts";
export {
  DEFAULT_VALIDATOR_BUDGET,
  SchemaBudgetError,
  type SpentBudget,
  type ValidatorBudget,
} from "./src/core/schema/validator/budget.ts";
export { checkJsonValue, type LimitProblem } from "./src/core/common/limits.ts";
export { boundDiagnostics, MAX_DIAGNOSTICS } from "./src/core/common/diagnostics.ts";
