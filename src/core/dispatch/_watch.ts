// One observed call: made only when the set has an observer, so that a set
// without one allocates nothing for observation. It reports the call's
// start, progress and end to the observer, keeps what extensions the
// observer adds for the handler, and keeps an observer that throws from
// failing the call.

import type { CallObserver, ObservedCall } from "./observer.ts";
import type { ProgressEvent, TerminalEvent } from "../contract/events.ts";
import type { DynTool } from "../contract/dyn.ts";
import type { ToolDescriptor } from "../contract/spec.ts";
import { isRecord } from "../common/_is_record.ts";
import { thrownField } from "../common/_describe_thrown.ts";
import { copyJsonValue, type JsonLimits } from "../common/limits.ts";
import { deepFreeze } from "../common/_deep_freeze.ts";
import { frozenExtensions } from "./_extensions.ts";

const NO_EFFECTS: readonly string[] = Object.freeze([]);

/** Where an observed call sits: a call of its own, or one attempt of a batch call. */
export interface WatchPlace {
  readonly resumed: boolean;
  readonly attempt?: number;
  readonly parent?: Watch;
}

/** A model's call of its own. */
export const CALL: WatchPlace = Object.freeze({ resumed: false });
/** A parked call resumed. */
export const RESUMED: WatchPlace = Object.freeze({ resumed: true });

/** Reads a call's or a record's id and tool name as untrusted as dispatch reads them; never throws. */
function identify(source: unknown, resumed: boolean): { readonly id: unknown; readonly name: unknown } {
  try {
    if (!isRecord(source)) return { id: undefined, name: undefined };
    return resumed ? { id: source.callId, name: source.tool } : { id: source.id, name: source.name };
  } catch {
    return { id: undefined, name: undefined };
  }
}

/**
 * Reads the arguments for an observer that asked for them: a JSON text as it is, a value as a frozen copy, so that an
 * observer cannot change the caller's arguments or what runs; a value that is not JSON within the limits (the call
 * fails on it) is left out. Never throws.
 */
function argumentsOf(source: unknown, resumed: boolean, limits: JsonLimits): unknown {
  try {
    const given = isRecord(source) ? (resumed ? source.input : source.arguments) : undefined;
    // Anything but a text is copied: a function is an object its caller holds too, and NaN is not JSON.
    if (typeof given === "string") return given;
    const copied = copyJsonValue(given, limits);
    return copied.ok ? deepFreeze(copied.value) : undefined;
  } catch {
    return undefined;
  }
}

export class Watch {
  readonly #observer: CallObserver;
  readonly call: ObservedCall;
  /** What the observer added to the handler's extensions for this call, if anything. */
  readonly extensions: Readonly<Record<string, unknown>> | undefined;
  #ended = false;

  constructor(
    observer: CallObserver,
    entries: ReadonlyMap<string, { readonly tool: DynTool; readonly descriptor: ToolDescriptor }>,
    source: unknown,
    place: WatchPlace,
    limits: JsonLimits,
  ) {
    this.#observer = observer;
    const { resumed } = place;
    const { id, name } = identify(source, resumed);
    const entry = typeof name === "string" ? entries.get(name) : undefined;
    // Every field always present, so every observed call has one shape.
    this.call = {
      callId: typeof id === "string" ? id : "",
      name: typeof name === "string" ? name : "",
      tool: entry?.tool,
      descriptor: entry?.descriptor,
      effects: entry?.descriptor.effects ?? NO_EFFECTS,
      resumed,
      attempt: place.attempt,
      parent: place.parent?.call,
      // Each setting read once, and one whose getter throws read as absent, as a hook that throws is ignored.
      startedAt: thrownField(observer, "timed") === false ? NaN : performance.now(),
      arguments: thrownField(observer, "includeArguments") === true ? argumentsOf(source, resumed, limits) : undefined,
    };
    let extensions: Readonly<Record<string, unknown>> | undefined;
    try {
      const added = observer.callStarted?.(this.call);
      // Copied as the host's own are; additions past the limits are left out, as a hook that throws is ignored.
      const frozen = isRecord(added) ? frozenExtensions(added, limits) : undefined;
      if (typeof frozen === "object") extensions = frozen;
    } catch {
      // An observer must not fail the call it observes.
    }
    this.extensions = extensions;
  }

  progress(event: ProgressEvent): void {
    if (this.#ended) return;
    try {
      this.#observer.progress?.(this.call, event);
    } catch {
      // As above.
    }
  }

  end(event: TerminalEvent): void {
    if (this.#ended) return;
    this.#ended = true;
    try {
      const terminal = this.#observer.terminal;
      if (terminal === undefined) return;
      terminal.call(this.#observer, this.call, {
        event,
        failureKind: event.type === "failed" ? event.failure.kind : undefined,
        // NaN, untimed: the clock is not read.
        durationMs: Number.isNaN(this.call.startedAt) ? NaN : performance.now() - this.call.startedAt,
      });
    } catch {
      // As above.
    }
  }
}
