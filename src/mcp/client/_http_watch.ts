// Telling a Streamable HTTP server that is gone from one that only dropped
// a stream. The SDK's transport does neither for us: when the server dies
// while a request's SSE response is open, it reports "SSE stream
// disconnected" to onerror and, unless the stream carried event ids, never
// settles the request; with event ids it retries a GET twice, then gives
// up, again leaving the request pending. It never calls onclose. Later
// POSTs reject one by one, but the connection still looks open.
//
// A broken stream or a failed request alone is not proof: a proxy may cut
// a stream the SDK then resumes, and a network blip may fail one request.
// So either one makes us ask the endpoint once more, on a fresh
// connection: no HTTP answer at all, of any status, within 5 s, means the
// server is gone. A live server answers at once, so a healthy connection
// is not ended, and a dead one on loopback is found within milliseconds.

/** How long the endpoint has to answer the check before it counts as gone. */
const CHECK_TIMEOUT_MS = 5_000;

/** The innermost part of a fetch error: "Connection refused (os error 111)", "connect ECONNREFUSED ...". */
function reason(error: unknown): string {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return (message.split(": ").at(-1) ?? message).slice(0, 200);
}

/**
 * Wraps the fetch a Streamable HTTP transport uses so that a request that
 * gets no answer, or an SSE response that breaks off, leads to a check of
 * the endpoint; `onGone` runs, once, when that check gets no answer. The
 * failure reaches the transport only after the check, so a call that
 * fails because the server is gone says so. `fetchFn` is read at each
 * request, so a fetch replaced after connecting is the one used.
 */
export function watchedFetch(
  endpoint: URL,
  fetchFn: () => typeof fetch,
  onGone: (problem: string) => void,
): typeof fetch {
  let gone = false;
  let running: Promise<void> | undefined;
  let again = false;

  /** Why the endpoint gave no HTTP answer, or undefined when it gave one or `signal` aborted. */
  const unanswered = async (signal: AbortSignal | null | undefined): Promise<string | undefined> => {
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException(`No answer within ${CHECK_TIMEOUT_MS} ms`, "TimeoutError")),
      CHECK_TIMEOUT_MS,
    );
    const stop = () => deadline.abort(signal?.reason);
    signal?.addEventListener("abort", stop, { once: true });
    try {
      // OPTIONS has no effect on any server and is never routed to a streaming handler.
      const response = await fetchFn()(endpoint, { method: "OPTIONS", signal: deadline.signal });
      await response.body?.cancel();
      return undefined;
    } catch (error) {
      // Closing the connection aborts the check; that says nothing about the server.
      return signal?.aborted ? undefined : reason(error);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", stop);
    }
  };

  const check = (signal: AbortSignal | null | undefined): Promise<void> => {
    if (gone || signal?.aborted) return Promise.resolve();
    if (running) {
      // A break while a check is under way may come after the server answered it.
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          const problem = await unanswered(signal);
          if (problem !== undefined) {
            gone = true;
            // Without user info and query, which may hold credentials: the phrase reaches errors and logs.
            onGone(`could not be reached at ${endpoint.origin}${endpoint.pathname} (${problem})`);
          }
        } while (again && !gone && !signal?.aborted);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  const watchBody = (body: ReadableStream<Uint8Array>, signal: AbortSignal | null | undefined) => {
    const reader = body.getReader();
    // The transport aborts its requests when it closes, but a stream it has stopped reading stays open
    // then, and holds the process: it is cancelled here. The listener goes with the stream, since one
    // signal serves every request of a connection.
    const stop = () => void reader.cancel(signal?.reason).catch(() => {});
    signal?.addEventListener("abort", stop, { once: true });
    // Set once the stream is done with, read to its end, failed or cancelled by its reader.
    let ended = false;
    const end = () => {
      ended = true;
      signal?.removeEventListener("abort", stop);
    };
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const chunk = await reader.read();
          // A read under way when the stream was cancelled ends with it, and is no sign of a gone server.
          if (ended) return;
          if (!chunk.done) return controller.enqueue(chunk.value);
          end();
          controller.close();
        } catch (error) {
          if (ended) return;
          end();
          await check(signal);
          throw error;
        }
      },
      cancel: (why) => {
        end();
        return reader.cancel(why);
      },
    });
  };

  return async (input, init) => {
    let response: Response;
    try {
      response = await fetchFn()(input, init);
    } catch (error) {
      await check(init?.signal);
      throw error;
    }
    // Only SSE streams stay open while the server works; any other body is read at once.
    const type = response.headers.get("content-type") ?? "";
    if (!response.ok || !response.body || !type.toLowerCase().startsWith("text/event-stream")) return response;
    return new Response(watchBody(response.body, init?.signal), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
