// Long messages over Streamable HTTP, read before the SDK's transport reads
// them. The transport parses a JSON body or an SSE event's data with
// JSON.parse, and checks it, in one stretch each; a long one is parsed here
// in paced pieces instead and parked, and the transport reads a short
// stand-in (see _paced_message.ts). Short messages pass as they came.

import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { PIECE_CHARS } from "./_paced_json.ts";
import { type ParkedMessages, UnreadRequest } from "./_paced_message.ts";
import { slices } from "./_slices.ts";

const LINE_END = /\r\n|\r|\n/;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const encoder = new TextEncoder();

/**
 * Wraps the fetch a Streamable HTTP transport uses so that a long message in a
 * response (a JSON body, or an SSE event) reaches the transport as a stand-in,
 * its message parked.
 *
 * @param fetchFn The fetch to wrap (already capped).
 * @param parked Where long messages wait for the transport to deliver their stand-ins.
 * @param answer Sends the server the error answer to a long request of its that could not be read.
 * @returns The wrapped fetch.
 */
export function pacedFetch(
  fetchFn: typeof fetch,
  parked: ParkedMessages,
  answer: (message: JSONRPCMessage) => void,
): typeof fetch {
  const read: Reader = { parked, answer };
  return async (input, init) => {
    const response = await fetchFn(input, init);
    if (!response.body || !response.ok) return response;
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    let body: BodyInit;
    if (type.startsWith("text/event-stream")) {
      body = eventsParked(response.body, read, slices());
    } else if (type.startsWith("application/json")) {
      // A body that says it is short goes as it came, unread here; a compressed one may unpack to any length.
      const length = Number(response.headers.get("content-length") ?? NaN);
      if (length <= PIECE_CHARS && !response.headers.has("content-encoding")) return response;
      body = await parkedText(await response.text(), read, slices());
    } else {
      return response;
    }
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** Where long messages are parked, and how a long request that could not be read is answered. */
interface Reader {
  readonly parked: ParkedMessages;
  readonly answer: (message: JSONRPCMessage) => void;
}

/**
 * A message's text for the transport: the same when short, a stand-in when long and
 * readable, and when long and not a message, a short text the transport refuses
 * in the same way, saying why (a request so refused is answered too).
 */
async function parkedText(text: string, read: Reader, pause: () => Promise<void>): Promise<string> {
  try {
    return await read.parked.park(text, pause);
  } catch (error) {
    if (error instanceof UnreadRequest) read.answer(error.answer);
    return JSON.stringify(`Skipped a message that is not JSON-RPC: ${(error as Error).message}`.slice(0, 500));
  }
}

/**
 * Splits an SSE stream into events and parks the message of each long one. The bytes pass
 * as they came otherwise, however the chunks cut them; an event is held only until it ends.
 * Line ends are ASCII, which no byte of a multi-byte UTF-8 character is, so the bytes are split
 * as they are and only a long event is decoded. The server's stream is read only as the
 * transport reads this one, as the transport would read it.
 */
function eventsParked(
  body: ReadableStream<Uint8Array>,
  read: Reader,
  pause: () => Promise<void>,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  // The event under way, as the chunks brought it.
  let parts: Uint8Array[] = [];
  let partBytes = 0;
  let lineEmpty = true;
  // A "\r" ended the last chunk: a "\n" opening the next is the same line end.
  let afterReturn = false;
  /** The whole events in a chunk, each as it came or parked; what follows the last waits in `parts`. */
  const events = async (bytes: Uint8Array): Promise<Uint8Array[]> => {
    const out: Uint8Array[] = [];
    let i = afterReturn && bytes[0] === NEWLINE ? 1 : 0;
    afterReturn = false;
    let eventFrom = 0;
    for (; i < bytes.length; i++) {
      const byte = bytes[i];
      if (byte !== NEWLINE && byte !== RETURN) {
        lineEmpty = false;
        continue;
      }
      let end = i + 1;
      if (byte === RETURN) {
        if (end === bytes.length) afterReturn = true;
        else if (bytes[end] === NEWLINE) end++;
      }
      i = end - 1;
      if (!lineEmpty) {
        lineEmpty = true;
        continue;
      }
      // An empty line ends the event.
      parts.push(bytes.subarray(eventFrom, end));
      const event = parts;
      const size = partBytes + end - eventFrom;
      parts = [];
      partBytes = 0;
      eventFrom = end;
      if (size > PIECE_CHARS) {
        out.push(encoder.encode(await parkedEvent(decoded(event), read, pause)));
        continue;
      }
      for (const part of event) out.push(part);
    }
    if (eventFrom < bytes.length) {
      parts.push(bytes.subarray(eventFrom));
      partBytes += bytes.length - eventFrom;
    }
    return out;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) {
          // An event the stream cut short goes as it came: the transport's own parser decides.
          for (const part of parts) controller.enqueue(part);
          return controller.close();
        }
        const out = await events(chunk.value);
        if (out.length === 0) continue;
        for (const part of out) controller.enqueue(part);
        return;
      }
    },
    cancel: (why) => reader.cancel(why),
  });
}

/** The text of an event's parts, a character cut between two parts included. */
function decoded(parts: Uint8Array[]): string {
  const decoder = new TextDecoder();
  let text = "";
  for (const part of parts) text += decoder.decode(part, { stream: true });
  return text + decoder.decode();
}

/** A long event, with its data (a message of the default type) replaced by a stand-in's text. */
async function parkedEvent(event: string, read: Reader, pause: () => Promise<void>): Promise<string> {
  const kept: string[] = [];
  const data: string[] = [];
  let type = "";
  for (const line of event.split(LINE_END)) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(line.charCodeAt(colon + 1) === 0x20 ? colon + 2 : colon + 1);
    if (field === "data") data.push(value);
    else if (line.length <= PIECE_CHARS) kept.push(line);
    if (field === "event") type = value;
  }
  // Only a message event carries JSON-RPC; the transport reads past any other.
  if (data.length === 0 || (type !== "" && type !== "message")) return event;
  const standIn = await parkedText(data.join("\n"), read, pause);
  return `${kept.map((line) => `${line}\n`).join("")}data: ${standIn}\n\n`;
}

/**
 * Makes a transport deliver each parked message in place of its stand-in, to
 * whichever handler is set on it later (the SDK's client sets its own when it
 * connects).
 *
 * @param transport The transport whose fetch parks long messages.
 * @param parked Where they wait.
 */
export function unparkOnDelivery(transport: Transport, parked: ParkedMessages): void {
  let handler: Transport["onmessage"];
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () => handler,
    set: (next: Transport["onmessage"]) => {
      handler = next && ((message: JSONRPCMessage, extra) => next(parked.unpark(message), extra));
    },
  });
}
