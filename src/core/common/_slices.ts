// Long work on what an MCP server or a stored record sent is cut into
// slices, so that the host's other work gets its turn between them.

/** The longest a slice of such work holds the event loop, in milliseconds. */
const SLICE_MS = 10;

/**
 * A pause between units of work that yields to the event loop once `ms` have
 * passed since it last yielded, and is free otherwise.
 *
 * @param ms The longest stretch between two yields.
 * @returns The pause; given a signal, it throws the signal's reason once aborted.
 */
export function slices(ms: number = SLICE_MS): (signal?: AbortSignal) => Promise<void> {
  let started = performance.now();
  return async (signal) => {
    if (performance.now() - started <= ms) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
    signal?.throwIfAborted();
    started = performance.now();
  };
}
