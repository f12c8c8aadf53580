/**
 * The testing kit: fake read, write and process executors whose every call
 * plays a scripted behaviour (including the ways a tool can break the
 * stream contract), and a conformance check any `DynTool`, native or MCP,
 * can be run through. It performs no IO and depends on no test runner.
 *
 * @example Script a fake, then check a tool's conformance
 * ```ts
 * import { ToolSet } from "@salvor/tools";
 * import { checkToolConformance, fakeWriteTool } from "@salvor/tools/testing";
 * import assert from "node:assert/strict";
 *
 * const write = fakeWriteTool({ script: [{ kind: "succeed", progress: [{ message: "writing" }] }] });
 * const types = [];
 * for await (const event of new ToolSet().register(write).stream({
 *   id: "call_1",
 *   name: "fake_write",
 *   arguments: { path: "a.txt", text: "hi" },
 * })) types.push(event.type);
 * assert.deepEqual(types, ["progress", "output"]);
 *
 * const broken = fakeWriteTool({ script: [{ kind: "end_without_terminal" }] });
 * const report = await checkToolConformance(broken, [{ arguments: { path: "a.txt", text: "hi" } }]);
 * assert.equal(report.ok, false);
 * assert.equal(report.rules.find((rule) => rule.name === "exactly_one_terminal")?.ok, false);
 * ```
 *
 * @module
 */

export * from "./src/testing/fake_tool.ts";
export * from "./src/testing/conformance.ts";
