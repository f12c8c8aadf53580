// The bound on calls running at once, shared by every request a handler
// serves: a flood is answered at once instead of piling up handlers, timers
// and memory until the process falls over.

/** Counts the calls running and admits a new one only under the bound. */
export class CallGate {
  #running = 0;
  readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** How many calls are running. */
  get running(): number {
    return this.#running;
  }

  /** Admits a call when there is room; the caller must `leave()` once it ends. */
  enter(): boolean {
    if (this.#running >= this.max) return false;
    this.#running++;
    return true;
  }

  /** Marks an admitted call as ended. */
  leave(): void {
    this.#running--;
  }
}
