// A byte cap on what a Streamable HTTP server sends. The SDK's transport
// reads a JSON body whole and an SSE event until it ends, with no bound: an
// endless body or data line grew the host by gigabytes in seconds. Each
// response body is read through a counter instead: a JSON (or any other)
// body counts as one message, an SSE stream counts each event apart, since
// one stream carries many messages over a session's life.

const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** Counts the bytes of the SSE event under way; an empty line ends an event. */
class EventCounter {
  #eventBytes = 0;
  #lineBytes = 0;
  #afterReturn = false;

  /** Adds a chunk; returns the largest event size seen in it. */
  add(chunk: Uint8Array): number {
    let largest = this.#eventBytes;
    let from = 0;
    // Where the next "\r" is, found once per pass over the chunk rather than once per line.
    let nextReturn = chunk.indexOf(RETURN);
    while (from < chunk.length) {
      let newline = chunk.indexOf(NEWLINE, from);
      if (newline === -1) newline = chunk.length;
      if (nextReturn !== -1 && nextReturn < from) nextReturn = chunk.indexOf(RETURN, from);
      const end = nextReturn !== -1 && nextReturn < newline ? nextReturn : newline;
      const text = end - from;
      if (text > 0) this.#afterReturn = false;
      this.#lineBytes += text;
      this.#eventBytes += text;
      largest = Math.max(largest, this.#eventBytes);
      if (end === chunk.length) break;
      // "\r\n" is one line ending, not an empty line after a "\r".
      const pairedNewline = chunk[end] === NEWLINE && this.#afterReturn && text === 0;
      this.#afterReturn = chunk[end] === RETURN;
      if (!pairedNewline) {
        if (this.#lineBytes === 0) this.#eventBytes = 0;
        this.#lineBytes = 0;
      }
      from = end + 1;
    }
    return largest;
  }
}

function capped(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  sse: boolean,
  tooLarge: () => Error,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const events = sse ? new EventCounter() : undefined;
  let total = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) return controller.close();
      total += chunk.value.length;
      const size = events ? events.add(chunk.value) : total;
      if (size > maxBytes) {
        const error = tooLarge();
        // Stops the download, so the server sees the client go.
        await reader.cancel(error).catch(() => {});
        controller.error(error);
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel: (why) => reader.cancel(why),
  });
}

/**
 * Wraps the fetch a Streamable HTTP transport uses so that no response body
 * and no SSE event may exceed `maxBytes`. Past it the body errors and
 * `onTooLarge` runs first, with a phrase saying what the server did.
 */
export function cappedFetch(
  fetchFn: typeof fetch,
  maxBytes: number,
  onTooLarge: (problem: string) => void,
): typeof fetch {
  return async (input, init) => {
    const response = await fetchFn(input, init);
    if (!response.body) return response;
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    const sse = type.startsWith("text/event-stream");
    const tooLarge = () => {
      const problem = `sent a message longer than ${maxBytes} bytes (the maxMessageBytes limit)`;
      onTooLarge(problem);
      return new RangeError(`The MCP server ${problem}`);
    };
    return new Response(capped(response.body, maxBytes, sse, tooLarge), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
