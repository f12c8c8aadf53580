/**
 * The erased tool: the one interface every tool, native or MCP, is
 * dispatched through.
 *
 * @module
 */

import type { ParseResult } from "../schema/schema.ts";
import type { ExecutionEvent, ProgressEvent } from "./events.ts";
import type { ToolDescriptor } from "./spec.ts";

/**
 * A call whose arguments passed the registry's validation. Only a
 * `ToolSet` makes these: a private field makes the type nominal, so no
 * object literal can pass for one.
 */
export class ValidatedInvocation {
  // Never read: a private field is what makes the type nominal.
  readonly #nominal = true;
  /** The id of the model's call. */
  readonly callId: string;
  /** The tool's registered name. */
  readonly tool: string;
  /** The validated (and, for typed tools, transformed) arguments. */
  readonly input: unknown;
  /** The call's idempotency key, when the tool declares one or the caller gave one. */
  readonly idempotencyKey: string | undefined;

  /**
   * Internal: use `ToolSet.stream` or `ToolSet.call`.
   *
   * @param token The registry's private token.
   * @param fields The validated call.
   * @throws {TypeError} When called from outside the registry.
   */
  constructor(
    token: symbol,
    fields: {
      callId: string;
      tool: string;
      input: unknown;
      idempotencyKey: string | undefined;
    },
  ) {
    if (token !== INVOCATION_TOKEN) {
      throw new TypeError(
        "Cannot make a ValidatedInvocation as only a ToolSet's validation step may make one",
      );
    }
    this.callId = fields.callId;
    this.tool = fields.tool;
    this.input = fields.input;
    this.idempotencyKey = fields.idempotencyKey;
  }
}

/** The registry's private token for {@linkcode ValidatedInvocation}. Not exported from the module. */
export const INVOCATION_TOKEN: unique symbol = Symbol("ValidatedInvocation");

/** What a running call can see and do besides its input. */
export interface ToolContext {
  /** Aborted on timeout or cancellation; stop work when it fires. */
  readonly signal: AbortSignal;
  /** The id of the model's call. */
  readonly callId: string;
  /**
   * Reports progress; shown as a progress event. Reports after the call
   * ended are dropped.
   *
   * @throws {TypeError} When `progress` or `total` is not a finite number or `message` is not a string.
   */
  progress(event: Omit<ProgressEvent, "type">): void;
  /** The call's idempotency key, when it has one. */
  readonly idempotencyKey?: string;
  /** The validated answer when the call is resumed after a suspension. */
  readonly resume?: unknown;
  /** Per-call values from the runtime (a user id, a tenant, a tracer, ...). */
  readonly extensions: Readonly<Record<string, unknown>>;
}

/**
 * A dyn-compatible tool. Typed tools, raw JSON Schema tools and MCP tools
 * all implement it; the registry validates calls before `execute` runs.
 */
export interface DynTool {
  /** What the tool is, as shown to models and runtimes. */
  readonly descriptor: ToolDescriptor;
  /**
   * Parses untrusted arguments that are already known to be bounded JSON.
   * When absent, the registry validates against `descriptor.inputSchema`.
   */
  parseInput?(value: unknown): ParseResult | Promise<ParseResult>;
  /**
   * Parses a structured output. When absent, the registry validates
   * against `descriptor.outputSchema`, if any.
   */
  parseOutput?(value: unknown): ParseResult | Promise<ParseResult>;
  /**
   * Parses the answer that resumes a call the tool's handler suspended,
   * after the answer met the record's JSON Schema. Typed tools with a
   * `resumeSchema` supply it, so that checks and transforms JSON Schema
   * cannot carry still apply; the handler gets its output as `ctx.resume`.
   */
  parseResume?(value: unknown): ParseResult | Promise<ParseResult>;
  /**
   * Runs a validated call. Yields progress events and then exactly one
   * terminal; the registry normalises any breach of that contract.
   */
  execute(
    invocation: ValidatedInvocation,
    ctx: ToolContext,
  ): AsyncIterable<ExecutionEvent>;
}
