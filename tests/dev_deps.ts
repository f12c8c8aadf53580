// Packages only the tests use, pinned here rather than in deno.json's import
// map, so that a user's first `deno task demo` downloads the runtime packages
// alone. Every test step runs with `--lock=tests/deno.lock`, which records them.

export { default as fc } from "npm:fast-check@4.11.0";
export { z } from "npm:zod@4.6.7";
export { type } from "npm:arktype@2.2.10";
export type { default as OpenAI } from "npm:openai@7.59.0";
export type { default as Anthropic } from "npm:@anthropic-ai/sdk@1.14.0";
export type {
  Content,
  FunctionCall,
  FunctionDeclaration,
  FunctionResponse,
  GenerateContentResponse,
  Part,
  Type,
} from "npm:@google/genai@3.3.0";
