// A request body read under a byte bound, counted as it streams in, and a
// time bound: a client that lies about Content-Length, or sends none, still
// cannot make the server buffer more than the bound, and one that sends a
// byte now and then cannot hold the request open for ever.

import { concatBytes } from "../../core/common/_concat_bytes.ts";

/**
 * The body's bytes, or which bound it passed (then it is not read further): `"size"` past `maxBytes`, `"time"` when it
 * has not ended `maxMs` after the read began.
 *
 * @throws {DOMException} An `AbortError` when the request's signal aborts before the body ends; the stream's own error
 * when it fails.
 */
export async function readBounded(
  request: Request,
  maxBytes: number,
  maxMs: number,
): Promise<Uint8Array | "size" | "time"> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await request.body?.cancel().catch(() => {});
    return "size";
  }
  if (request.body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  // A request its client gave up on stops being read: a body that never ends would otherwise hold the read for ever.
  // Cancelling ends the read at once, as if the body had ended; the abort is told after.
  const { signal } = request;
  const stop = () => void reader.cancel(signal.reason).catch(() => {});
  if (signal.aborted) stop();
  else signal.addEventListener("abort", stop, { once: true });
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    void reader.cancel().catch(() => {});
  }, maxMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return "size";
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", stop);
  }
  if (late) return "time";
  if (signal.aborted) throw new DOMException("The request was aborted before its body was read", "AbortError");
  return chunks.length === 1 ? chunks[0] : concatBytes(chunks, size);
}
