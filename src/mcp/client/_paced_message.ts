// A server's JSON-RPC message, read without holding the event loop for long.
// JSON.parse reads a message in one native stretch: 8 MiB of small objects
// took 0.3–0.6 s. A long message is parsed in paced pieces instead, and held
// to bounds on what the SDK then reads of it in one stretch: it copies every
// member of an object it checks (0.3 s for a result of 200,000 members) and
// checks every content block.
//
// Over Streamable HTTP the SDK's transport parses what it reads itself. The
// fetch it is given parses a long message first and hands it a short
// stand-in, parked here under a random token; the transport's delivery swaps
// the message back in (_http_bodies.ts).

import { type JSONRPCMessage, parseJSONRPCMessage } from "@modelcontextprotocol/client";
import { isRecord } from "../../core/common/_is_record.ts";
import { MESSAGE_BOUNDS, parsePaced, PIECE_CHARS, reasonOf, topLevelOf } from "../_paced_json.ts";

const PAYLOADS = ["result", "params", "error"] as const;
/** The longest id or method, in characters: either is copied into a stand-in. */
export const MAX_ENVELOPE_STRING: number = 4_096;
/** The most content blocks a long message's result may hold: the SDK checks each, in one stretch. */
export const MAX_CONTENT_BLOCKS: number = 10_000;
/** JSON-RPC's code for an internal error, given to an answer that could not be read. */
const INTERNAL_ERROR = -32603;
/** JSON-RPC's code for an invalid request, sent back for a server's request that could not be read. */
const INVALID_REQUEST = -32600;
const PARKED = "io.salvor/parked";
/** Marks the error answer that stands in for an answer the host could not read. */
const UNREAD = "io.salvor/unread";

/**
 * A server's long request that could not be read: it is not delivered, and
 * `answer` is the error answer to send the server, which would otherwise
 * wait for one until its own timeout.
 */
export class UnreadRequest extends Error {
  /** The error answer for the server, under the request's id. */
  readonly answer: JSONRPCMessage;

  /**
   * @param id The request's id.
   * @param why Why it could not be read: "an object holds ...".
   * @param cause What stopped the reading.
   */
  constructor(id: string | number, why: string, cause: unknown) {
    super(`Cannot read the server's request as ${why}`, { cause });
    this.name = "UnreadRequest";
    this.answer = unreadRequestAnswer(id, why);
  }
}

/**
 * The error answer to a server's request the host cannot read, so that the server does not wait for its timeout.
 *
 * @param id The request's id.
 * @param why Why it cannot be read: "it is ...", "an object holds ...".
 * @returns A JSON-RPC error answer, code -32600.
 */
export function unreadRequestAnswer(id: string | number, why: string): JSONRPCMessage {
  return errorAnswer(id, INVALID_REQUEST, `Cannot read the server's request as ${why}`);
}

function errorAnswer(id: string | number, code: number, message: string, data?: unknown): JSONRPCMessage {
  return {
    jsonrpc: "2.0",
    id,
    error: data === undefined ? { code, message } : { code, message, data },
  } as JSONRPCMessage;
}

/**
 * The error answer that stands in for a server's answer the host cannot read, so that the call it answers fails
 * at once, saying why.
 *
 * @param id The id of the request it answers.
 * @param why Why it cannot be read: "it is ...", "an object holds ...".
 * @returns A JSON-RPC error answer, code -32603, marked in its `data`.
 */
export function unreadAnswer(id: string | number, why: string): JSONRPCMessage {
  return errorAnswer(id, INTERNAL_ERROR, `Cannot read the MCP server's answer as ${why}`, { [UNREAD]: true });
}

/**
 * Whether a call's error is one {@linkcode unreadAnswer} made. A server may send the mark itself: that only
 * makes its own failed call read as a result that could not be read.
 *
 * @param data The error's `data`.
 * @returns Whether it carries the mark.
 */
export function isUnreadAnswer(data: unknown): boolean {
  return isRecord(data) && data[UNREAD] === true;
}

/**
 * Reads one JSON-RPC message from a server's text. A text longer than a piece
 * is parsed in paced pieces and its shape bounded before the SDK checks it.
 * An answer that cannot be read so, once its id is known, becomes an
 * error answer saying why, so that the call it answers fails at once; a
 * request becomes an {@linkcode UnreadRequest}, whose answer the server is to be sent.
 *
 * @param text What the server sent as one message.
 * @param pause Awaited between pieces of a long text.
 * @returns The message.
 * @throws {UnreadRequest} When a long text of a request (an id, and a method or params) cannot be read, for any of the reasons below.
 * @throws {SyntaxError} When the text is not JSON, and no id was read.
 * @throws {RangeError} When a long text breaks a bound, and no id was read.
 * @throws {Error} When it is not a JSON-RPC message (the SDK's check), and no id was read.
 */
export async function readMessage(text: string, pause: () => Promise<void>): Promise<JSONRPCMessage> {
  if (text.length <= PIECE_CHARS) return parseJSONRPCMessage(JSON.parse(text));
  try {
    const value = await parsePaced(text, pause, MESSAGE_BOUNDS);
    return checkedMessage(value);
  } catch (error) {
    // An answer's id may come after what broke: the SDK's server writes it last.
    const { id, isRequest } = await topLevelOf(text, pause, MAX_ENVELOPE_STRING);
    if (id === undefined) throw error;
    const why = reasonOf(error);
    if (isRequest) throw new UnreadRequest(id, why, error);
    return unreadAnswer(id, why);
  }
}

/** Checks a long message's bounds, then its envelope with the SDK. */
function checkedMessage(value: unknown): JSONRPCMessage {
  if (isRecord(value)) {
    for (const member of ["id", "method"]) {
      const part = value[member];
      // Either is copied into a stand-in, which the transport parses in one stretch.
      if (typeof part === "string" && part.length > MAX_ENVELOPE_STRING) {
        throw new RangeError(
          `Cannot read the message as its ${member} is longer than ${MAX_ENVELOPE_STRING} characters: current length is ${part.length}`,
        );
      }
    }
    const { result } = value;
    if (isRecord(result) && Array.isArray(result.content) && result.content.length > MAX_CONTENT_BLOCKS) {
      throw new RangeError(
        `Cannot read the message as its result holds more than ${MAX_CONTENT_BLOCKS} content blocks: current count is ${result.content.length}`,
      );
    }
  }
  return parseJSONRPCMessage(value);
}

function isPayload(member: string): member is typeof PAYLOADS[number] {
  return (PAYLOADS as readonly string[]).includes(member);
}

/**
 * Long messages read ahead of the SDK's transport, each kept under a random
 * token until the transport delivers the stand-in that names it.
 */
export class ParkedMessages {
  readonly #messages = new Map<string, JSONRPCMessage>();

  /**
   * Reads a server's text: a short one is left as it is, a long one is read (paced) and parked.
   *
   * @param text One message's text.
   * @param pause Awaited between pieces of a long text.
   * @returns The text for the transport: the same, or a stand-in's.
   * @throws {UnreadRequest} When a long request cannot be read.
   * @throws {SyntaxError} When a long text is not JSON.
   * @throws {Error} When a long text is not a JSON-RPC message.
   */
  async park(text: string, pause: () => Promise<void>): Promise<string> {
    if (text.length <= PIECE_CHARS) return text;
    const message = await readMessage(text, pause);
    const token = crypto.randomUUID();
    // The checked envelope's id and method are short; its payload (there is one: the rest is short) is an
    // object the stand-in names.
    const standIn: Record<string, unknown> = {};
    for (const [member, part] of Object.entries(message)) {
      standIn[member] = !isPayload(member)
        ? part
        : member === "error"
        ? { code: (part as { code: number }).code, message: "", data: { [PARKED]: token } }
        : { _meta: { [PARKED]: token } };
    }
    this.#messages.set(token, message);
    return JSON.stringify(standIn);
  }

  /**
   * Swaps a delivered stand-in for the message it stands for, keeping the
   * stand-in's id (the transport may have set it). Any other message is
   * returned as it is.
   *
   * @param message What the transport delivered.
   * @returns The message.
   */
  unpark(message: JSONRPCMessage): JSONRPCMessage {
    if (this.#messages.size === 0) return message;
    const delivered = message as unknown as Record<string, unknown>;
    for (const field of PAYLOADS) {
      const payload = delivered[field];
      if (!isRecord(payload)) continue;
      const holder = field === "error" ? payload.data : payload._meta;
      const token = isRecord(holder) ? holder[PARKED] : undefined;
      const parked = typeof token === "string" ? this.#messages.get(token) : undefined;
      if (parked === undefined) continue;
      this.#messages.delete(token as string);
      return { ...parked, ...("id" in delivered ? { id: delivered.id } : {}) } as JSONRPCMessage;
    }
    return message;
  }
}
