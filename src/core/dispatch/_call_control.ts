// One call's stop conditions: the caller's signal and the timeout. Both
// abort the handler's signal; listeners and timers live only as long as the
// call, so a long-lived caller signal collects nothing.

/** What `race` resolves to when the call stopped first. */
export const STOPPED: unique symbol = Symbol("stopped");

/** Why a call stopped before its tool finished. */
export type StopReason = "timeout" | "cancelled";

export class CallControl {
  stopped: StopReason | undefined;
  #controller: AbortController | undefined;
  #callerSignal: AbortSignal | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #deadline = Infinity;
  #stop: Promise<typeof STOPPED> | undefined;
  #resolveStop: ((value: typeof STOPPED) => void) | undefined;
  #onAbort: (() => void) | undefined;

  /**
   * @param stoppable Whether `cancel()` must wake a pending `race()` even with
   * no signal and no timeout; without it such a call races nothing, which
   * keeps the common call on the fastest path.
   */
  constructor(
    callerSignal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    stoppable = false,
  ) {
    if (callerSignal === undefined && timeoutMs === undefined && !stoppable) return;
    this.#stop = new Promise((resolve) => this.#resolveStop = resolve);
    if (callerSignal?.aborted) {
      this.#halt("cancelled");
      return;
    }
    if (callerSignal) {
      this.#callerSignal = callerSignal;
      this.#onAbort = () => this.#halt("cancelled");
      callerSignal.addEventListener("abort", this.#onAbort, { once: true });
    }
    if (timeoutMs !== undefined) {
      this.#deadline = performance.now() + timeoutMs;
      this.#timer = setTimeout(() => this.#halt("timeout"), timeoutMs);
    }
  }

  /**
   * Whether the call stopped, counting a deadline that passed while
   * synchronous work (validating a large input) kept the timer from firing.
   */
  expired(): boolean {
    if (!this.stopped && this.#deadline !== Infinity && performance.now() >= this.#deadline) this.#halt("timeout");
    return this.stopped !== undefined;
  }

  /** The handler's signal, made on first use: most handlers never read it. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.stopped) this.#controller.abort(this.#reason());
    }
    return this.#controller.signal;
  }

  #reason(): DOMException {
    return this.stopped === "timeout"
      ? new DOMException("The tool call timed out", "TimeoutError")
      : new DOMException("The tool call was cancelled", "AbortError");
  }

  /** Stops the call as cancelled, e.g. when its caller stops reading the stream. */
  cancel(): void {
    this.#halt("cancelled");
  }

  #halt(reason: StopReason): void {
    if (this.stopped) return;
    this.stopped = reason;
    this.#controller?.abort(this.#reason());
    this.#resolveStop?.(STOPPED);
    this.dispose();
  }

  /** Waits for a value, or for the call to stop, whichever comes first. */
  race<T>(value: T | Promise<T>): Promise<T | typeof STOPPED> {
    if (this.stopped) return Promise.resolve(STOPPED);
    if (!this.#stop) return Promise.resolve(value);
    return Promise.race([value, this.#stop]);
  }

  /** Removes the listener and the timer. Safe to call more than once. */
  dispose(): void {
    // Most calls have no timer and no listener: they skip both runtime calls.
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const signal = this.#callerSignal;
    this.#callerSignal = undefined;
    if (this.#onAbort === undefined || signal === undefined) return;
    try {
      signal.removeEventListener("abort", this.#onAbort);
    } catch {
      // A signal-like object of the caller's that throws here: the call has ended either way, and the listener's
      // halt does nothing once it has.
    }
  }
}
