/**
 * Salvor tools: the typed tool-contract layer for TypeScript agent
 * runtimes. The main path is four steps:
 *
 * 1. Define a tool: {@linkcode defineTool} (a Valibot or Standard Schema)
 *    or {@linkcode defineJsonTool} (a raw JSON Schema), with its declared
 *    effects.
 * 2. Register it in a strict {@linkcode ToolSet} (no silent overwrite).
 * 3. Dispatch a model's call with `ToolSet.call` or `ToolSet.stream`:
 *    arguments are validated before anything runs.
 * 4. Read exactly one terminal event: output, suspended (parked for a
 *    person, resumed with `ToolSet.resume`), or failed with a typed
 *    {@linkcode ToolFailure} whose `kind` tells "the model sent bad
 *    arguments" (`invalid_input`) apart from "the tool failed" (`handler`).
 *
 * The core performs no IO and runs unchanged on Deno, Node, Bun,
 * Cloudflare Workers and browsers. Other entrypoints: `./providers` (tool
 * shapes per model provider), `./mcp` and `./mcp/http` (MCP servers'
 * tools), `./testing` (fakes and conformance) and `./dyn` (the erased tool
 * interface and the validation plumbing, for those who build a tool type
 * of their own).
 *
 * @example Define, register and call a tool
 * ```ts
 * import { defineTool, schedulerClass, ToolSet } from "@salvor/tools";
 * import * as v from "valibot";
 * import assert from "node:assert/strict";
 *
 * const readFile = defineTool({
 *   name: "read_file",
 *   description: "Read a UTF-8 text file.",
 *   inputSchema: v.object({ path: v.pipe(v.string(), v.minLength(1)) }),
 *   outputSchema: v.object({ text: v.string() }),
 *   effects: ["fs.read"],
 *   run: (input) => ({ text: `contents of ${input.path}` }),
 * });
 * const tools = new ToolSet().register(readFile);
 * assert.equal(schedulerClass(readFile.descriptor), "parallel_read_only");
 *
 * const ok = await tools.call({ id: "call_1", name: "read_file", arguments: '{"path":"a.txt"}' });
 * assert.equal(ok.type, "output");
 *
 * const bad = await tools.call({ id: "call_2", name: "read_file", arguments: '{"path":""}' });
 * assert.equal(bad.type === "failed" && bad.failure.kind, "invalid_input");
 * ```
 *
 * @module
 */

// The main path: define, register, call.
export {
  type DefinedTool,
  defineJsonTool,
  type DefineJsonToolOptions,
  defineTool,
  type DefineToolOptions,
  type Handler,
  type HandlerContext,
  type HandlerReturn,
  type ToolMetadata,
  type TypedTool,
} from "./src/core/define/define.ts";
export { type ParkingPolicy, ToolSet, type ToolSetOptions } from "./src/core/dispatch/tool_set.ts";
export {
  type BatchCallResult,
  type BatchOptions,
  type BatchProgress,
  type BatchResult,
  resumeBatch,
  type ResumeBatchOptions,
  runBatch,
} from "./src/core/dispatch/batch.ts";
export type {
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalGate,
  ApprovalVerdict,
  ArgumentsProjection,
  CallOptions,
  ToolCall,
} from "./src/core/dispatch/tool_call.ts";
export {
  approvalByEffects,
  type ApprovalByEffectsOptions,
  type ApprovalRequest,
  ASK_BY_DEFAULT,
} from "./src/core/dispatch/approval.ts";
export type { ToolContext } from "./src/core/contract/dyn.ts";
export type { CallObserver, ObservedCall, ObservedEnd } from "./src/core/dispatch/observer.ts";
export type { BatchEntry, BatchRecord } from "./src/core/contract/batch_record.ts";

// What a call ends in.
export type {
  ContentPart,
  ExecutionEvent,
  FailedEvent,
  OutputEvent,
  ProgressEvent,
  SuspendedEvent,
  Suspension,
  TerminalEvent,
  ToolEvent,
  ToolResult,
} from "./src/core/contract/events.ts";
export { FAILURE_KINDS, type FailureKind, type ToolFailure } from "./src/core/contract/failure.ts";
export {
  HandlerError,
  type HandlerErrorOptions,
  InvalidSpecError,
  RegistryError,
  type SpecProblem,
} from "./src/core/common/errors.ts";
export { result, type ResultOptions, ResultValue } from "./src/core/contract/result.ts";
export {
  APPROVAL_RESUME_SCHEMA,
  suspend,
  type SuspendedCall,
  type SuspendOptions,
  SuspendRequest,
  type SuspensionOrigin,
} from "./src/core/contract/suspend.ts";

// Sealed, single-use suspension records.
export {
  MemoryNonceStore,
  type MemoryNonceStoreOptions,
  type NonceStore,
  RecordSeal,
  type Sealed,
  type SealKey,
  type SealOptions,
  type SealStamp,
  type VerifyExpectation,
  type VerifyFailureReason,
  type VerifyResult,
} from "./src/core/seal/seal.ts";

// Effects, retry and scheduling.
export {
  type Concurrency,
  type Effect,
  type EffectClass,
  effectClass,
  type EffectDeclaration,
  type ExecutionSemantics,
  type Idempotency,
  isReadOnly,
  KNOWN_EFFECTS,
  type KnownEffect,
  READ_ONLY_EFFECTS,
  type RetryMode,
  type SchedulerClass,
  schedulerClass,
} from "./src/core/contract/effect.ts";
export { type RetryDecision, RetryPolicy, type RetryPolicyOptions } from "./src/core/dispatch/retry.ts";
export { type Plan, planCalls, type RefusedCall } from "./src/core/dispatch/schedule.ts";

// Specs, schemas and the shape of validation problems.
export type { ToolDescriptor, ToolHints, ToolSpec } from "./src/core/contract/spec.ts";
export type { JsonSchema } from "./src/core/schema/schema.ts";
export type { Diagnostic, DiagnosticReport } from "./src/core/common/diagnostics.ts";
export { DEFAULT_LIMITS, type JsonLimits, SCHEMA_LIMITS } from "./src/core/common/limits.ts";
export type { SchemaInput, SchemaOutput, ValibotSchema } from "./src/core/schema/valibot_schema.ts";
export type {
  StandardIssue,
  StandardJsonSchemaConverter,
  StandardResult,
  StandardSchema,
  ToolSchema,
  ToolSchemaInput,
  ToolSchemaOutput,
} from "./src/core/schema/standard_schema.ts";
