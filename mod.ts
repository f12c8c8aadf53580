/**
 * Salvor tools: the typed tool-contract layer for TypeScript agent
 * runtimes. Define a tool once with typed schemas and declared effects;
 * register it in a strict {@linkcode ToolSet}; dispatch a model's calls
 * through one path that validates before anything runs and always ends in
 * exactly one terminal event. The core performs no IO and runs unchanged
 * on Deno, Node, Bun, Cloudflare Workers and browsers.
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
 *   input: v.object({ path: v.pipe(v.string(), v.minLength(1)) }),
 *   output: v.object({ text: v.string() }),
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

export * from "./src/effect.ts";
export * from "./src/limits.ts";
export * from "./src/diagnostics.ts";
export * from "./src/schema.ts";
export * from "./src/errors.ts";
export * from "./src/failure.ts";
export * from "./src/spec.ts";
export * from "./src/events.ts";
export * from "./src/suspend.ts";
export * from "./src/result.ts";
export type { DynTool, ParseResult, ToolContext, ValidatedInvocation } from "./src/dyn.ts";
export * from "./src/define.ts";
export * from "./src/valibot_schema.ts";
export * from "./src/tool_set.ts";
export * from "./src/tool_call.ts";
export * from "./src/schedule.ts";
export * from "./src/retry.ts";
export * from "./src/standard_schema.ts";
