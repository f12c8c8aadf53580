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
  let started = now();
  let still = 0;
  return async (signal) => {
    const time = now();
    if (time - started <= ms && (time !== started || ++still < PAUSES_ON_A_STILL_CLOCK)) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
    signal?.throwIfAborted();
    started = now();
    still = 0;
  };
}
