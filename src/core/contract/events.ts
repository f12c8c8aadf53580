/**
 * Events: what a call's stream yields. Zero or more progress events, then
 * exactly one terminal: an output, a suspension, or a failure.
 *
 * @module
 */

import type { ToolFailure } from "./failure.ts";
import type { JsonSchema } from "../schema/schema.ts";
import type { SuspendedCall } from "./suspend.ts";

/** A model-visible part of a result. */
export type ContentPart =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image"; readonly data: string; readonly mimeType: string }
  | { readonly type: "audio"; readonly data: string; readonly mimeType: string }
  | {
    readonly type: "resource_link";
    readonly uri: string;
    readonly name?: string;
    readonly mimeType?: string;
    readonly description?: string;
  }
  | {
    readonly type: "resource";
    readonly uri: string;
    readonly mimeType?: string;
    readonly text?: string;
    readonly blob?: string;
  };

/** What a successful call produced. */
export interface ToolResult {
  /** What the model sees. Defaults to the output as JSON text. */
  readonly content: readonly ContentPart[];
  /** The structured output, validated against the output schema. */
  readonly output?: unknown;
  /** Host-only details, never shown to the model. */
  readonly details?: unknown;
  /** Tool-specific usage counters (tokens, bytes, requests, ...). */
  readonly usage?: Readonly<Record<string, number>>;
}

/** Progress reported while a call runs. */
export interface ProgressEvent {
  /** The event type. */
  readonly type: "progress";
  /** Work done so far, in the tool's own units. */
  readonly progress?: number;
  /** Total work, when known. */
  readonly total?: number;
  /** A short human message. */
  readonly message?: string;
}

/** A call's successful end. */
export interface OutputEvent {
  /** The event type. */
  readonly type: "output";
  /** What the call produced. */
  readonly result: ToolResult;
}

/** A call parked for a human; the record resumes it later. */
export interface SuspendedEvent {
  /** The event type. */
  readonly type: "suspended";
  /** The JSON record to keep and resume from. */
  readonly suspended: SuspendedCall;
}

/** A call's failed end. */
export interface FailedEvent {
  /** The event type. */
  readonly type: "failed";
  /** Why it failed. */
  readonly failure: ToolFailure;
}

/** The one event that ends a call. */
export type TerminalEvent = OutputEvent | SuspendedEvent | FailedEvent;

/** An event from `ToolSet.stream`. */
export type ToolEvent = ProgressEvent | TerminalEvent;

/** A handler's request to park the call, before dispatch turns it into a record. */
export interface Suspension {
  /** Why a human is needed, shown to the human. */
  readonly reason: string;
  /** The JSON Schema an answer must meet to resume. */
  readonly resumeSchema: JsonSchema;
  /** Any JSON data the human needs to decide (a diff, a preview, ...). */
  readonly payload?: unknown;
}

/**
 * An event a `DynTool` yields from `execute`. A suspension carries only
 * what the tool knows; dispatch adds the call's identity to make the record.
 */
export type ExecutionEvent =
  | ProgressEvent
  | OutputEvent
  | FailedEvent
  | { readonly type: "suspended"; readonly suspension: Suspension };
