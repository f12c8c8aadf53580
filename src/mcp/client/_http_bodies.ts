// What a Streamable HTTP server sends, read once before the SDK's transport
// reads it. The transport reads a JSON body whole and an SSE event until it
// ends, with no bound (an endless body or data line grew the host by
// gigabytes in seconds), and parses each message with JSON.parse and checks
// it in one stretch. Here no body and no SSE event may exceed the byte cap: a
// JSON body (or any other) counts as one message, an SSE stream counts each
// event apart, since one stream carries many messages over a session's life.
// A long message (a JSON body, or an SSE event's data) is parsed in paced
// pieces and parked, and the transport reads a short stand-in of it (see
// _paced_message.ts). Everything else passes as it came. An SSE event past
// the cap is skipped to its end and told apart by its head and tail
// (_long_message.ts). An answer past the cap in the response to a POST (or
// one that cannot be told apart there) fails the requests that POST carries,
// each answered with an error saying so, and the connection goes on; on the
// session's own stream (a GET), which answers none, a message that cannot be
// told apart ends the connection.

import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { PIECE_CHARS, type TopLevel } from "../_paced_json.ts";
import { type ParkedMessages, unreadAnswer, UnreadRequest } from "./_paced_message.ts";
import { headOfLong, type LongMessage, opensObject, toldAtEnd, toldByHead } from "./_long_message.ts";
import { HEAD_CHARS, lastBytes, MAX_SKIPPED_BYTES, TAIL_BYTES } from "../_line_reader.ts";
import { slices } from "../../core/common/_slices.ts";
import { isRecord } from "../../core/common/_is_record.ts";

const LINE_ENDS = /\r\n|\r|\n/g;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const encoder = new TextEncoder();

/** How a server's response bodies are read. */
export interface BodyRules {
  /** The most bytes a body, or an SSE event, may hold. */
  readonly maxBytes: number;
  /**
   * Runs when a body or an event on the session's own stream is past `maxBytes` and cannot be told apart, with a
   * phrase saying what the server did.
   */
  readonly onTooLarge: (problem: string) => void;
  /** Where long messages wait for the transport to deliver their stand-ins. */
  readonly parked: ParkedMessages;
  /** Sends the server the error answer to a long request of its that could not be read. */
  readonly answer: (message: JSONRPCMessage) => void;
  /** Hears of a message skipped as past `maxBytes` (a request of the server's, or a notification). */
  readonly report: (error: Error) => void;
}

/** What a body or an event past the cap errors with. */
class PastCap extends RangeError {}

/**
 * Wraps the fetch a Streamable HTTP transport uses so that no response body
 * and no SSE event may exceed `rules.maxBytes`, and a long message in a
 * successful response reaches the transport as a stand-in, its message
 * parked. Past the cap, an SSE event that can be told apart is skipped (see
 * `events`); otherwise the response to a POST that carries requests answers
 * each of them with an error naming the limit (the rest of it is not read),
 * and any other body errors, `onTooLarge` running first on a GET.
 *
 * @param fetchFn The fetch to wrap.
 * @param rules The byte cap, where long messages are parked, and how a long request that could not be read is answered.
 * @returns The wrapped fetch.
 */
export function boundedFetch(fetchFn: typeof fetch, rules: BodyRules): typeof fetch {
  const over = `longer than ${rules.maxBytes} bytes (the maxMessageBytes limit)`;
  return async (input, init) => {
    const response = await fetchFn(input, init);
    if (!response.body) return response;
    const tooLarge = () => {
      const problem = `sent a message ${over}`;
      // The response to a POST fails the requests it carries at most; on the session's own stream, which answers
      // none, a message past the cap that cannot be told apart ends the connection, as a call may wait for it.
      if (init?.method !== "POST") rules.onTooLarge(problem);
      return new PastCap(`The MCP server ${problem}`);
    };
    // The POST's own body is read for its requests' ids only when an answer is past the cap, and then once.
    let answers: JSONRPCMessage[] | undefined;
    const standIns = () => answers ??= requestIds(init).map((id) => unreadAnswer(id, `it is ${over}`));
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    let body: BodyInit;
    if (type.startsWith("text/event-stream")) {
      // A message in a failed response is never delivered, so it is never parked nor answered for.
      body = response.ok
        ? events(response.body, rules.maxBytes, tooLarge, { rules, standIns })
        : events(response.body, rules.maxBytes, tooLarge);
    } else if (type.startsWith("application/json") && response.ok && !saysShort(response.headers, rules.maxBytes)) {
      const pause = slices();
      let text: string;
      try {
        text = await textWithin(response.body, rules.maxBytes, tooLarge, pause);
      } catch (error) {
        const answers = error instanceof PastCap ? standIns() : [];
        if (answers.length === 0) throw error;
        text = JSON.stringify(answers.length === 1 ? answers[0] : answers);
      }
      body = await parkedText(text, rules, pause);
    } else {
      body = counted(response.body, rules.maxBytes, tooLarge);
    }
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The ids of the requests a POST carries, read from its JSON body: the answers the host waits for. */
function requestIds(init: RequestInit | undefined): (string | number)[] {
  if (init?.method !== "POST" || typeof init.body !== "string") return [];
  let sent: unknown;
  try {
    sent = JSON.parse(init.body);
  } catch {
    return [];
  }
  const ids: (string | number)[] = [];
  for (const message of Array.isArray(sent) ? sent : [sent]) {
    if (!isRecord(message) || typeof message.method !== "string") continue;
    if (typeof message.id === "string" || typeof message.id === "number") ids.push(message.id);
  }
  return ids;
}

/**
 * Whether a body says it is no longer than a piece and than the cap; a compressed one may unpack to any length.
 */
function saysShort(headers: Headers, maxBytes: number): boolean {
  return Number(headers.get("content-length") ?? NaN) <= Math.min(PIECE_CHARS, maxBytes) &&
    !headers.has("content-encoding");
}

/** A body counted as it passes, as one message. */
function counted(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  tooLarge: () => Error,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let total = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) return controller.close();
      total += chunk.value.length;
      if (total > maxBytes) return stop(reader, controller, tooLarge());
      controller.enqueue(chunk.value);
    },
    cancel: (why) => reader.cancel(why),
  });
}

/** Stops the download, so the server sees the client go, and errors the body read from it. */
async function stop(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  controller: ReadableStreamDefaultController<Uint8Array>,
  error: unknown,
): Promise<void> {
  await reader.cancel(error).catch(() => {});
  controller.error(error);
}

/** A whole body's text, read within the byte cap, a chunk at a time with pauses between. */
async function textWithin(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  tooLarge: () => Error,
  pause: () => Promise<void>,
): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let total = 0;
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) return text + decoder.decode();
    total += chunk.value.length;
    if (total > maxBytes) {
      const error = tooLarge();
      await reader.cancel(error).catch(() => {});
      throw error;
    }
    for (const piece of inPieces(chunk.value)) {
      text += decoder.decode(piece, { stream: true });
      await pause();
    }
  }
}

/**
 * A byte array cut to at most a piece each: a response may come in chunks of megabytes, and decoding one (or
 * splitting its text) would hold the loop for as long.
 */
function* inPieces(chunk: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < chunk.length; at += PIECE_CHARS) yield chunk.subarray(at, at + PIECE_CHARS);
}

/**
 * A message's text for the transport: the same when short, a stand-in when long and
 * readable, and when long and not a message, a short text the transport refuses
 * in the same way, saying why (a request so refused is answered too).
 */
async function parkedText(text: string, rules: BodyRules, pause: () => Promise<void>): Promise<string> {
  try {
    return await rules.parked.park(text, pause);
  } catch (error) {
    if (error instanceof UnreadRequest) rules.answer(error.answer);
    return JSON.stringify(`Skipped a message that is not JSON-RPC: ${(error as Error).message}`.slice(0, 500));
  }
}

/** What a successful response's SSE stream does with its messages. */
interface Delivery {
  /** Where its long messages are parked, how the server's requests are answered and what is skipped reported. */
  readonly rules: BodyRules;
  /** The answers that stand in for the ones to the POST's requests, once an event past the cap cannot be told apart. */
  readonly standIns: () => JSONRPCMessage[];
}

/** A JSON-RPC message as one SSE event. */
function messageEvent(message: JSONRPCMessage): Uint8Array {
  return encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

/**
 * Splits an SSE stream into events, each held to the byte cap, and parks the message of each long one
 * when `delivery` is given. The bytes pass as they came otherwise, however the chunks cut them; an event
 * is held only until it ends. Line ends are ASCII, which no byte of a multi-byte UTF-8 character is, so
 * the bytes are split as they are and only a long event is decoded. The server's stream is read only as
 * the transport reads this one, as the transport would read it. Past the cap the stream errors, but for
 * a successful response: an event that can be told apart is skipped to its end, its head and tail kept, and
 * what it was says what goes in its place (see _long_message.ts); one that cannot, or that runs on past
 * `MAX_SKIPPED_BYTES`, errors the stream, or, in the response to a POST's requests, is followed by stand-in
 * answers to them, and the stream ends there.
 */
function events(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  tooLarge: () => Error,
  delivery?: Delivery,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const pause = slices();
  // The event under way, as the chunks brought it.
  let parts: Uint8Array[] = [];
  let partBytes = 0;
  let lineEmpty = true;
  // A "\r" ended the last chunk: a "\n" opening the next is the same line end.
  let afterReturn = false;
  // The size of the event that "\r" ended, if it did: the "\n" is that event's last byte.
  let endedOnReturn: number | undefined;
  // The event past the cap being skipped to its end: what its head said (and whether that told what it is), its
  // last bytes and its size so far.
  let skipping: { readonly event: EventHead; readonly told: boolean; tail: Uint8Array; bytes: number } | undefined;
  // What broke the stream, once the events before it have gone out.
  let broken: { readonly error: unknown } | undefined;
  /**
   * The head of an event past the cap that is to be skipped to its end and told apart, or undefined: an event of
   * another type than message, or a message whose data starts as an object. In the response to a POST's requests,
   * only a message of the server's own (its head names a method or params) is: an answer is cut short there, and the
   * requests are answered for.
   */
  const skipped = async (head: string): Promise<EventHead | undefined> => {
    const event = delivery === undefined ? undefined : eventHead(head);
    if (event === undefined || event.type !== "message") return event;
    if (!opensObject(event.data)) return undefined;
    const start = await headOfLong(event.data, pause);
    const answers = delivery!.standIns().length > 0;
    return !answers || start.isRequest ? { ...event, start } : undefined;
  };
  /** What goes out in place of a long message; throws when it cannot be told apart. */
  const instead = (long: LongMessage): Uint8Array[] => {
    if (long.kind === "unknown") throw tooLarge();
    if (long.kind === "answer") return [messageEvent(long.standIn)];
    const { rules } = delivery!;
    if (long.kind === "request") rules.answer(long.reply);
    rules.report(new Error(long.note));
    return [];
  };
  /**
   * What a message event past the cap is from its head alone, as soon as it passes the cap: told when the head
   * names its id (see `toldByHead`).
   */
  const toldAtOnce = (event: EventHead): LongMessage | undefined =>
    event.start === undefined ? undefined : toldByHead(event.data, event.start, maxBytes);
  /** What goes out in place of an event past the cap that has ended, as `skipped` read it; throws when it cannot. */
  const inPlaceOf = (event: EventHead | undefined, tail: Uint8Array): Uint8Array[] => {
    if (event === undefined) throw tooLarge();
    // Only a message event carries JSON-RPC (and has its head read); the transport reads past any other.
    if (event.start === undefined) return [];
    return instead(toldAtEnd(event.data, event.start, new TextDecoder().decode(tail), maxBytes));
  };
  /** Adds the whole events in a chunk to `out`, each as it came, parked or replaced; the rest waits in `parts`. */
  const split = async (bytes: Uint8Array, out: Uint8Array[]): Promise<void> => {
    const joinsReturn = afterReturn && bytes[0] === NEWLINE;
    let i = joinsReturn ? 1 : 0;
    let eventFrom = 0;
    if (joinsReturn && endedOnReturn !== undefined) {
      if (endedOnReturn + 1 > maxBytes) throw tooLarge();
      out.push(bytes.subarray(0, 1));
      eventFrom = 1;
    }
    afterReturn = false;
    endedOnReturn = undefined;
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
      const last = bytes.subarray(eventFrom, end);
      eventFrom = end;
      let replaced: Uint8Array[];
      if (skipping !== undefined) {
        const { event, told, tail } = skipping;
        skipping = undefined;
        replaced = told ? [] : inPlaceOf(event, lastBytes(tail, last));
      } else {
        parts.push(last);
        const event = parts;
        const size = partBytes + last.length;
        parts = [];
        partBytes = 0;
        if (size > maxBytes) replaced = inPlaceOf(await skipped(headOf(event)), tailOf(event));
        else {
          if (afterReturn) endedOnReturn = size;
          const parked = delivery !== undefined && size > PIECE_CHARS;
          for (const part of parked ? await parkedEvent(event, delivery.rules, pause) : event) out.push(part);
          continue;
        }
      }
      // A "\n" after the "\r" that ended it is a blank line after what replaced it.
      if (afterReturn) endedOnReturn = 0;
      for (const part of replaced) out.push(part);
    }
    if (eventFrom === bytes.length) return;
    const rest = bytes.subarray(eventFrom);
    if (skipping !== undefined) {
      skipping.bytes += rest.length;
      // An event that never ends is given up on, not skipped for ever.
      if (skipping.bytes > MAX_SKIPPED_BYTES) throw tooLarge();
      skipping.tail = lastBytes(skipping.tail, rest);
      return;
    }
    parts.push(rest);
    partBytes += rest.length;
    if (partBytes <= maxBytes) return;
    // An event past the cap is not held until it ends.
    const event = await skipped(headOf(parts));
    if (event === undefined) throw tooLarge();
    // What stands in for a message its head tells goes out now, not once the skip reaches its end.
    const told = toldAtOnce(event);
    if (told !== undefined) {
      for (const part of instead(told)) out.push(part);
    }
    skipping = { event, told: told !== undefined, tail: tailOf(parts), bytes: partBytes };
    parts = [];
    partBytes = 0;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // The events before one that broke the stream go first: erroring a stream drops what it has queued.
      if (broken !== undefined) return controller.error(broken.error);
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) {
          // An event the stream cut short goes as it came: the transport's own parser decides. (One cut short
          // while it was skipped is lost, as its end would have told what it was.)
          for (const part of parts) controller.enqueue(part);
          return controller.close();
        }
        const out: Uint8Array[] = [];
        try {
          for (const piece of inPieces(chunk.value)) {
            await split(piece, out);
            // Chunks already at hand are read in one run of promise turns, which timers cannot break into.
            await pause();
          }
        } catch (error) {
          const answers = error instanceof PastCap && delivery !== undefined ? delivery.standIns() : [];
          if (answers.length === 0 && out.length === 0) return stop(reader, controller, error);
          for (const part of out) controller.enqueue(part);
          for (const answer of answers) controller.enqueue(messageEvent(answer));
          await reader.cancel(error).catch(() => {});
          if (answers.length === 0) broken = { error };
          else controller.close();
          return;
        }
        if (out.length === 0) continue;
        for (const part of out) controller.enqueue(part);
        return;
      }
    },
    cancel: (why) => reader.cancel(why),
  });
}

/** An event's first characters, from the bytes it came in. */
function headOf(parts: readonly Uint8Array[]): string {
  const decoder = new TextDecoder();
  let head = "";
  for (let p = 0, taken = 0; p < parts.length && taken < HEAD_CHARS; p++) {
    const part = parts[p].subarray(0, HEAD_CHARS - taken);
    head += decoder.decode(part, { stream: true });
    taken += part.length;
  }
  return head;
}

/** An event's last bytes, from the bytes it came in. */
function tailOf(parts: readonly Uint8Array[]): Uint8Array {
  let tail: Uint8Array = new Uint8Array(0);
  for (let p = parts.length - 1; p >= 0 && tail.length < TAIL_BYTES; p--) tail = lastBytes(parts[p], tail);
  return tail;
}

/** The type of an SSE event, and the start of its first data line. */
interface EventHead {
  readonly type: string;
  readonly data: string;
  /** What that start said of the message's envelope, for a message event skipped to its end. */
  readonly start?: TopLevel;
}

/** An SSE event's head, from its first characters; undefined when no data line starts in them. */
function eventHead(head: string): EventHead | undefined {
  let type = "message";
  for (const line of head.split(/\r\n|\r|\n/)) {
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(line.charCodeAt(colon + 1) === 0x20 ? colon + 2 : colon + 1);
    if (field === "data") return { type, data: value };
    if (field === "event") type = value;
  }
  return undefined;
}

/**
 * The lines of an event's parts, each as the pieces of text it came in (a long line is never joined here, so
 * never copied whole in one stretch), decoded a part at a time with pauses between.
 */
async function* linesOf(chunks: Uint8Array[], pause: () => Promise<void>): AsyncGenerator<string[]> {
  const parts = chunks.flatMap((chunk) => [...inPieces(chunk)]);
  const decoder = new TextDecoder();
  let pieces: string[] = [];
  // A "\r" that ends a part waits: a "\n" opening the next is the same line end.
  let carried = "";
  for (let p = 0; p <= parts.length; p++) {
    let text = carried + (p < parts.length ? decoder.decode(parts[p], { stream: true }) : decoder.decode());
    carried = "";
    if (p < parts.length && text.endsWith("\r")) {
      carried = "\r";
      text = text.slice(0, -1);
    }
    let from = 0;
    for (const end of text.matchAll(LINE_ENDS)) {
      pieces.push(text.slice(from, end.index));
      yield pieces;
      pieces = [];
      from = end.index + end[0].length;
    }
    if (from < text.length) pieces.push(text.slice(from));
    await pause();
  }
  if (pieces.length > 0) yield pieces;
}

/** The first `chars` characters of a line's pieces. */
function lineHead(pieces: readonly string[], chars: number): string {
  let head = "";
  for (let i = 0; i < pieces.length && head.length < chars; i++) head += pieces[i].slice(0, chars - head.length);
  return head;
}

/** A line's text from character `from` on, joined as a string of its pieces rather than copied. */
function lineFrom(pieces: readonly string[], from: number): string {
  let text = "";
  let skip = from;
  for (const piece of pieces) {
    if (skip >= piece.length) {
      skip -= piece.length;
      continue;
    }
    text += skip > 0 ? piece.slice(skip) : piece;
    skip = 0;
  }
  return text;
}

/**
 * A long event's parts, with its data (a message of the default type) replaced by a stand-in; any other
 * event's parts as they came.
 */
async function parkedEvent(
  event: Uint8Array[],
  rules: BodyRules,
  pause: () => Promise<void>,
): Promise<Uint8Array[]> {
  const kept: string[] = [];
  let data: string | undefined;
  let type = "";
  for await (const pieces of linesOf(event, pause)) {
    // A field's name ends at the line's first colon; the names read here are short.
    const head = lineHead(pieces, 16);
    if (head === "" || head.startsWith(":")) continue;
    const colon = head.indexOf(":");
    const field = colon === -1 ? head : head.slice(0, colon);
    const valueFrom = colon === -1 ? Infinity : head.charCodeAt(colon + 1) === 0x20 ? colon + 2 : colon + 1;
    if (field === "data") {
      const value = lineFrom(pieces, valueFrom);
      data = data === undefined ? value : `${data}\n${value}`;
      continue;
    }
    const length = pieces.reduce((sum, piece) => sum + piece.length, 0);
    if (length <= PIECE_CHARS) kept.push(pieces.join(""));
    if (field === "event") type = lineFrom(pieces, valueFrom);
  }
  // Only a message event carries JSON-RPC; the transport reads past any other.
  if (data === undefined || (type !== "" && type !== "message")) return event;
  const standIn = await parkedText(data, rules, pause);
  return [encoder.encode(`${kept.map((line) => `${line}\n`).join("")}data: ${standIn}\n\n`)];
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
