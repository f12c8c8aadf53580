// Watching a tool's raw stream from outside: a wrapper DynTool that hands
// every call to the tool and logs what its execute() stream did before the
// registry normalised it. The registry never knows it is being watched.

import type { DynTool, ToolContext, ValidatedInvocation } from "../core/contract/dyn.ts";
import type { ExecutionEvent } from "../core/contract/events.ts";

/** What one execute() stream did, up to the moment its consumer closed it. */
export class StreamLog {
  /** The context the registry gave the call. */
  readonly ctx: ToolContext;
  /** The raw values the stream yielded, in order. */
  readonly events: unknown[] = [];
  /** The stream finished on its own: it ended or threw. */
  ended = false;
  /** It threw (execute() itself, or the stream). */
  threw = false;
  /** What it threw. */
  thrown: unknown;
  /** The consumer closed it before it finished. */
  closed = false;
  #outstanding = 0;
  #waiters: (() => void)[] = [];

  constructor(ctx: ToolContext) {
    this.ctx = ctx;
  }

  /** Counts a step of the stream as outstanding until it settles. */
  track<T>(step: Promise<T>): Promise<T> {
    this.#outstanding++;
    const settled = () => {
      if (--this.#outstanding === 0) { for (const wake of this.#waiters.splice(0)) wake(); }
    };
    step.then(settled, settled);
    return step;
  }

  /** Resolves once no step of the stream (a next() or a return()) is outstanding. */
  idle(): Promise<void> {
    if (this.#outstanding === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  fail(error: unknown): void {
    if (this.closed || this.ended) return;
    this.ended = true;
    this.threw = true;
    this.thrown = error;
  }
}

/** A watched tool and the log of each of its calls. */
export interface Observed {
  /** The wrapper to register instead of the tool. */
  readonly tool: DynTool;
  /** One log a call of execute(), in order. */
  readonly logs: readonly StreamLog[];
  /** Called when execute() is called, before the tool's stream starts. */
  onExecute: (() => void) | undefined;
}

function watch(inner: AsyncIterator<ExecutionEvent>, log: StreamLog): AsyncIterator<ExecutionEvent> {
  return {
    next() {
      const step = log.track(new Promise<IteratorResult<ExecutionEvent>>((resolve) => resolve(inner.next())));
      return step.then((result) => {
        if (!log.closed && !log.ended) {
          if (result.done) log.ended = true;
          else log.events.push(result.value);
        }
        return result;
      }, (error: unknown) => {
        log.fail(error);
        throw error;
      });
    },
    return(value?: unknown) {
      if (!log.ended) log.closed = true;
      return log.track(
        new Promise<IteratorResult<ExecutionEvent>>((resolve) =>
          resolve(inner.return ? inner.return(value) : { done: true, value: undefined })
        ),
      );
    },
  };
}

/** Wraps a tool so each call's raw stream is logged. The tool itself is not changed. */
export function observe(tool: DynTool): Observed {
  const logs: StreamLog[] = [];
  const observed: Observed = {
    logs,
    onExecute: undefined,
    tool: {
      descriptor: tool.descriptor,
      ...(typeof tool.parseInput === "function" ? { parseInput: (value: unknown) => tool.parseInput!(value) } : {}),
      ...(typeof tool.parseOutput === "function" ? { parseOutput: (value: unknown) => tool.parseOutput!(value) } : {}),
      execute(invocation: ValidatedInvocation, ctx: ToolContext): AsyncIterable<ExecutionEvent> {
        const log = new StreamLog(ctx);
        logs.push(log);
        observed.onExecute?.();
        let inner: AsyncIterator<ExecutionEvent>;
        try {
          inner = tool.execute(invocation, ctx)[Symbol.asyncIterator]();
        } catch (error) {
          log.fail(error);
          throw error;
        }
        const iterator = watch(inner, log);
        return { [Symbol.asyncIterator]: () => iterator };
      },
    },
  };
  return observed;
}
