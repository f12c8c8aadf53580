// Long work on what an MCP server or a stored record sent is cut into
// slices, so that the host's other work gets its turn between them.

/** The longest a slice of such work holds the event loop, in milliseconds. */
const SLICE_MS = 10;
/**
 * How many pauses in a row a clock that stands still may see before they yield anyway. Cloudflare Workers' clock
 * moves only between events, never while code runs; the units of work between pauses take well under a millisecond.
 */
const PAUSES_ON_A_STILL_CLOCK = 16;

/**
 * A pause between units of work that yields to the event loop once `ms` have
 * passed since it last yielded, and is free otherwise. Where the clock does
 * not move while code runs, it yields after a few pauses on the same time.
 *
 * @param ms The longest stretch between two yields.
 * @param now The clock, in milliseconds.
 * @returns The pause; given a signal, it throws the signal's reason once aborted.
 */
export function slices(
  ms: number = SLICE_MS,
  now: () => number = () => performance.now(),
): (signal?: AbortSignal) => Promise<void> {
  const due = yields(ms, now);
  return async (signal) => {
    const turn = due();
    if (turn === undefined) return;
    await turn;
    signal?.throwIfAborted();
  };
}

/**
 * The same pause for a caller that must not cost a promise when no yield is due: `undefined` then, else the turn to
 * wait for.
 *
 * @param ms The longest stretch between two yields.
 * @param now The clock, in milliseconds.
 * @returns The check.
 */
export function yields(
  ms: number = SLICE_MS,
  now: () => number = () => performance.now(),
): () => Promise<void> | undefined {
  let started = now();
  let still = 0;
  return () => {
    const time = now();
    if (time - started <= ms && (time !== started || ++still < PAUSES_ON_A_STILL_CLOCK)) return undefined;
    return new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => {
      started = now();
      still = 0;
    });
  };
}
