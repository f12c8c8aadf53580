/**
 * Rich results: a handler's way to return model-visible content, host-only
 * details and usage beside (or instead of) a structured output.
 *
 * @module
 */

import type { ContentPart, ToolResult } from "./events.ts";
import { OUTPUT_AS_TEXT, outputAsText } from "./_output_text.ts";

/** What a handler may put in a rich result. */
export interface ResultOptions<Output> {
  /** The structured output, validated against the output schema. */
  readonly output?: Output;
  /** What the model sees; the output as JSON text when absent. */
  readonly content?: readonly ContentPart[];
  /** Host-only details, never shown to the model. */
  readonly details?: unknown;
  /** Tool-specific usage counters. */
  readonly usage?: Readonly<Record<string, number>>;
}

/** A rich result returned from a handler. Made by {@linkcode result}. */
export class ResultValue<Output = unknown> {
  /** The parts the handler gave. */
  readonly options: ResultOptions<Output>;

  /**
   * Prefer {@linkcode result}.
   *
   * @param options The result's parts.
   */
  constructor(options: ResultOptions<Output>) {
    this.options = options;
  }
}

/**
 * Returns a rich result from a handler: content the model sees, details
 * only the host sees, usage counters, and the structured output.
 *
 * @param options The result's parts.
 * @returns The value to return from the handler.
 *
 * @example Show the model a summary, keep the raw bytes for the host
 * ```ts
 * import { defineJsonTool, result, ToolSet } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * const stat = defineJsonTool({
 *   name: "stat",
 *   description: "Size of a file.",
 *   inputSchema: { type: "object" },
 *   effects: ["fs.read"],
 *   run: () => result({ content: [{ type: "text", text: "12 bytes" }], details: { inode: 7 } }),
 * });
 * const end = await new ToolSet().register(stat).call({ id: "1", name: "stat", arguments: "{}" });
 * assert.equal(end.type, "output");
 * if (end.type === "output") assert.deepEqual(end.result.details, { inode: 7 });
 * ```
 */
export function result<Output>(
  options: ResultOptions<Output>,
): ResultValue<Output> {
  return new ResultValue(options);
}

/**
 * Internal: turns what a handler returned (a rich result or a bare output)
 * into a {@linkcode ToolResult}. The model sees the output as JSON text
 * unless the handler chose the content.
 *
 * @param value What the handler returned.
 * @param textLater Leave that text for dispatch to write from the output it validates.
 * @returns The result.
 */
export function toToolResult(value: unknown, textLater = false): ToolResult {
  // A bare output (the common return) needs no options object; fields are
  // assigned, not spread from conditional literals, in the same order.
  const options: ResultOptions<unknown> | undefined = value instanceof ResultValue ? value.options : undefined;
  const chosen = options === undefined ? undefined : options.content;
  const output = options === undefined ? value : options.output;
  const content = chosen ?? (textLater && output !== undefined ? OUTPUT_AS_TEXT : outputAsText(output));
  const made: { -readonly [K in keyof ToolResult]: ToolResult[K] } = { content };
  if (output !== undefined) made.output = output;
  if (options?.details !== undefined) made.details = options.details;
  if (options?.usage !== undefined) made.usage = options.usage;
  return made;
}
