// How a message quotes a thrown value. Anything can be thrown: an Error whose
// message is a getter that throws, an object whose toString throws or returns
// an object, a revoked Proxy. Describing it must never throw in turn, or the
// failure being reported becomes an unhandled rejection.

/** The most characters of a thrown value's description a message carries. */
const MAX_DESCRIPTION = 1000;

/** A thrown value's text (`String(thrown)`), cut at 1000 characters; its type when it has no readable text. */
export function describeThrown(thrown: unknown): string {
  let text: string;
  try {
    text = String(thrown);
  } catch {
    text = `an unreadable ${thrown === null ? "null" : typeof thrown}`;
  }
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION).toWellFormed()} [... truncated]` : text;
}

/**
 * Reads one field of a thrown value (or of any value a host or tool handed
 * over), or `undefined` when it has none or reading it throws (a getter, a
 * revoked Proxy).
 */
export function thrownField(thrown: unknown, field: string): unknown {
  try {
    return (typeof thrown === "object" || typeof thrown === "function") && thrown !== null
      ? (thrown as Record<string, unknown>)[field]
      : undefined;
  } catch {
    return undefined;
  }
}

/** An Error's message when it has a readable one, else {@linkcode describeThrown}; never throws. */
export function messageOfThrown(thrown: unknown): string {
  let isError = false;
  try {
    isError = thrown instanceof Error;
  } catch {
    // A revoked Proxy throws on the prototype lookup.
  }
  const message = isError ? thrownField(thrown, "message") : undefined;
  return typeof message === "string" ? describeThrown(message) : describeThrown(thrown);
}
