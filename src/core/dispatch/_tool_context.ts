// The ToolContext a handler gets. A class, not an object literal: a literal
// with a getter is built slowly on every call, and the signal must stay a
// getter so that the AbortController is made only for handlers that read it.

import type { CallControl } from "./_call_control.ts";
import type { ToolContext } from "../contract/dyn.ts";
import type { ProgressEvent } from "../contract/events.ts";

/** What a call's context holds besides its signal. */
export interface ContextFields {
  readonly callId: string;
  readonly idempotencyKey: string | undefined;
  readonly resume: unknown;
  readonly resumePayload: unknown;
  readonly extensions: Readonly<Record<string, unknown>>;
  /** An own function, so that a handler may pass `ctx.progress` around unbound. */
  readonly progress: (event: Omit<ProgressEvent, "type">) => void;
}

/** One call's context, its signal read from the call's control on first use. */
export class CallContext implements ToolContext {
  readonly #control: CallControl;
  readonly callId: string;
  readonly idempotencyKey: string | undefined;
  readonly resume: unknown;
  readonly resumePayload: unknown;
  readonly extensions: Readonly<Record<string, unknown>>;
  readonly progress: (event: Omit<ProgressEvent, "type">) => void;

  constructor(control: CallControl, fields: ContextFields) {
    this.#control = control;
    this.callId = fields.callId;
    this.idempotencyKey = fields.idempotencyKey;
    this.resume = fields.resume;
    this.resumePayload = fields.resumePayload;
    this.extensions = fields.extensions;
    this.progress = fields.progress;
  }

  /** Aborted on timeout or cancellation. */
  get signal(): AbortSignal {
    return this.#control.signal;
  }
}
