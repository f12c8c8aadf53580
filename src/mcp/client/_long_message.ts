// A server's message past maxMessageBytes is never held whole: its reader
// keeps its first characters and its last bytes, skips the rest to its end,
// and hands both here to tell what the message was (the first characters
// alone, as soon as it passes the limit, when they name its id). An answer to the host
// becomes an error answer that fails its request alone; a request of the
// server's is answered with an error; a notification is dropped. A message
// whose id cannot be read this way is "unknown", and its reader ends the
// connection, since a call may be waiting for it.

import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { MAX_ENVELOPE_STRING, unreadAnswer, unreadRequestAnswer } from "./_paced_message.ts";
import { type TopLevel, topLevelOf } from "../_paced_json.ts";
import { trimEndWhile } from "../../core/common/_trim_end.ts";

/**
 * Whether a long message's head starts as a JSON object: only such a message can be told apart, and any
 * other is not worth skipping to its end.
 *
 * @param head The message's first characters.
 * @returns Whether its first character other than white space is "{".
 */
export function opensObject(head: string): boolean {
  return /^\s*\{/.test(head);
}

/** What a message past the limit was, and what is to be done in its place. */
export type LongMessage =
  /** An answer to the host: `standIn` is delivered in its place. */
  | { readonly kind: "answer"; readonly standIn: JSONRPCMessage }
  /** A request of the server's: `reply` is sent back, `note` reported. */
  | { readonly kind: "request"; readonly reply: JSONRPCMessage; readonly note: string }
  /** A notification: dropped, `note` reported. */
  | { readonly kind: "notification"; readonly note: string }
  /** Nothing could be told of it. */
  | { readonly kind: "unknown" };

/** The characters of a number. */
const NUMBER_CHARACTERS = "-+.eE0123456789";
/** An object that ends on a numeric "id" member, as the SDK's server writes every message: the id. */
const ENDS_ON_ID = /,\s*"id"\s*:\s*(-?\d{1,15})\s*\}\s*$/;

/**
 * What a long message's first characters say of its envelope, read as the start of an object: its id, when they
 * name one, and whether it is a request (a `method` or `params` member).
 *
 * @param head The message's first characters.
 * @param pause Awaited now and then during the scan.
 * @returns What they say.
 */
export function headOfLong(head: string, pause: () => Promise<void>): Promise<TopLevel> {
  // The head may stop inside a number: `"id":10` of `"id":100`. What could be one is not read.
  const whole = trimEndWhile(head, (char) => NUMBER_CHARACTERS.includes(char));
  return topLevelOf(whole, pause, MAX_ENVELOPE_STRING);
}

/**
 * The envelope of a message too long to read, from what its head said and its last characters: the head's id, or,
 * when it names none, the tail's last member when that is a numeric id (the SDK's server writes the id last, after
 * the payload).
 *
 * @param start What its head said (see {@linkcode headOfLong}).
 * @param tail Its last characters.
 * @returns Its id, when one was found, and whether its head is a request's.
 */
export function envelopeOf(start: TopLevel, tail: string): TopLevel {
  if (start.id !== undefined) return start;
  const last = ENDS_ON_ID.exec(tail)?.[1];
  return last === undefined ? start : { id: Number(last), isRequest: start.isRequest };
}

/** Tells what a message past the limit was from its envelope (see {@linkcode envelopeOf}). */
function longMessageOf(head: string, envelope: TopLevel, maxBytes: number): LongMessage {
  const why = `it is longer than ${maxBytes} bytes (the maxMessageBytes limit)`;
  const { id, isRequest } = envelope;
  if (!isRequest) return id === undefined ? { kind: "unknown" } : { kind: "answer", standIn: unreadAnswer(id, why) };
  const note = `Skipped a message of the server's as ${why}: ${head.slice(0, 200)}`;
  return id === undefined
    ? { kind: "notification", note }
    : { kind: "request", reply: unreadRequestAnswer(id, why), note };
}

/**
 * What a message past the limit is, from its head alone, as soon as it passes the limit: told when the head names
 * its id (as a server that writes the id first does), since the tail is read only for an id the head lacks; then
 * its call fails, or its request is answered, at once rather than once the skip reaches its end, which may be far
 * off, or never come.
 *
 * @param head The message's first characters.
 * @param start What they said (see {@linkcode headOfLong}).
 * @param maxBytes The limit it is past.
 * @returns What it is, as {@linkcode toldAtEnd} would tell at its end; undefined when the head names no id.
 */
export function toldByHead(head: string, start: TopLevel, maxBytes: number): LongMessage | undefined {
  return start.id === undefined ? undefined : longMessageOf(head, start, maxBytes);
}

/**
 * What a message past the limit was, told at its end from what its head said and its last characters (see
 * {@linkcode envelopeOf}); when its head named its id, what {@linkcode toldByHead} told then.
 *
 * @param head The message's first characters.
 * @param start What they said (see {@linkcode headOfLong}).
 * @param tail Its last characters.
 * @param maxBytes The limit it is past.
 * @returns What it was.
 */
export function toldAtEnd(head: string, start: TopLevel, tail: string, maxBytes: number): LongMessage {
  return longMessageOf(head, envelopeOf(start, tail), maxBytes);
}
