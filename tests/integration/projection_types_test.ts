// Type-level: each projection's result is assignable to the provider SDK's
// own type. `deno check` of this file is the test; the SDKs are dev-only
// imports, never imported by the core.

import assert from "node:assert/strict";
import type { Anthropic, FunctionDeclaration, OpenAI, Type } from "../dev_deps.ts";
import type { SpecTool as McpSpecTool, Tool as McpSdkTool } from "../mcp/fixtures/_sdk_v1_server.ts";
import { describeTool } from "../../dyn.ts";
import {
  type GeminiFunctionDeclaration,
  type GeminiType,
  toAnthropicTool,
  toGeminiFunction,
  toMcpTool,
  toOpenAITool,
} from "../../providers.ts";

const descriptor = describeTool({
  name: "search",
  title: "Search",
  description: "Searches the docs.",
  inputSchema: {
    type: "object",
    properties: { query: { type: "string" }, limit: { type: "integer" } },
    required: ["query"],
  },
  outputSchema: { type: "object", properties: { hits: { type: "array", items: { type: "string" } } } },
  effects: ["external.read"],
});

// Gemini's SDK names types with a TypeScript string enum, which no literal
// type is assignable to. So: the projection's type names are exactly the
// enum's values, and with the enum put in their place every other field is
// assignable as it is.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type WithSdkType<T> = T extends readonly (infer Item)[] ? WithSdkType<Item>[]
  : T extends object ? { [K in keyof T]: K extends "type" ? Type : WithSdkType<T[K]> }
  : T;
const geminiTypeNames: Same<GeminiType, Exclude<`${Type}`, "TYPE_UNSPECIFIED">> = true;
const asGeminiDeclaration = (tool: WithSdkType<GeminiFunctionDeclaration>): FunctionDeclaration => tool;

Deno.test("each projection's result is assignable to its provider SDK's own type", () => {
  const chat: OpenAI.Chat.Completions.ChatCompletionFunctionTool = toOpenAITool(descriptor).tool;
  const chatTool: OpenAI.Chat.Completions.ChatCompletionTool = toOpenAITool(descriptor, { strict: false }).tool;
  const responses: OpenAI.Responses.FunctionTool = toOpenAITool(descriptor, { api: "responses" }).tool;
  const responsesTool: OpenAI.Responses.Tool = toOpenAITool(descriptor, { api: "responses", strict: false }).tool;
  const anthropic: Anthropic.Messages.Tool = toAnthropicTool(descriptor).tool;
  const anthropicUnion: Anthropic.Messages.ToolUnion = toAnthropicTool(descriptor).tool;
  const mcp: McpSdkTool = toMcpTool(descriptor).tool;
  const mcpSpec: McpSpecTool = toMcpTool(descriptor).tool;
  const gemini: GeminiFunctionDeclaration = toGeminiFunction(descriptor).tool;
  assert.equal(geminiTypeNames, true);
  assert.equal(asGeminiDeclaration.length, 1);
  assert.deepEqual(
    [chat, chatTool, responses, responsesTool, anthropic, anthropicUnion, mcp, mcpSpec, gemini].map((tool) =>
      "function" in tool ? tool.function.name : tool.name
    ),
    Array(9).fill("search"),
  );
});

Deno.test("the MCP SDK's own Tool schema accepts toMcpTool() of every fixture", async () => {
  const { ToolSchema } = await import("../mcp/fixtures/_sdk_v1_server.ts");
  const { SCHEMAS, fixtureDescriptor } = await import("../providers/fixtures/projection_schemas.ts");
  for (const name of Object.keys(SCHEMAS)) {
    const parsed = ToolSchema.safeParse(toMcpTool(fixtureDescriptor(name)).tool);
    assert.equal(parsed.success, true, `${name}: ${JSON.stringify(parsed.error?.issues)}`);
  }
  assert.equal(ToolSchema.safeParse(toAnthropicTool(descriptor).tool).success, false);
});
