// The stdio server's bound on how deep a client's message nests, held before
// the SDK reads it: the SDK's checks recurse a level at a time, and a
// capability nested 20,000 deep overflowed the stack inside them, answered
// -32603 and reported as the server's failure. The bound is the paced
// parse's on long containers (MAX_LONG_DEPTH), which the fetch handler holds
// its requests to as it parses them.

import { type JSONRPCMessage, ProtocolErrorCode, type Transport } from "@modelcontextprotocol/server";
import { holdDepth, MAX_LONG_DEPTH, reasonOf } from "../_paced_json.ts";

type MessageExtra = Parameters<NonNullable<Transport["onmessage"]>>[1];

/**
 * The error answer to a message that could not be read within a bound on messages.
 *
 * @param id The message's id.
 * @param error Why it could not be read: a bound's RangeError.
 * @returns A -32600 error answer naming the bound.
 */
export function unreadRefusal(id: string | number, error: unknown): JSONRPCMessage {
  return {
    jsonrpc: "2.0",
    id,
    error: { code: ProtocolErrorCode.InvalidRequest, message: `Cannot read the message as ${reasonOf(error)}` },
  };
}

/**
 * A transport that holds every message it receives to the bound. A request
 * past it is answered -32600 on the transport; an answer past it reaches
 * the server as that error instead, so the request it answers fails rather
 * than waits; a notification past it is dropped.
 */
export class DepthBoundTransport implements Transport {
  readonly #inner: Transport;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  readonly setProtocolVersion?: (version: string) => void;

  constructor(inner: Transport) {
    this.#inner = inner;
    if (inner.setProtocolVersion !== undefined) {
      this.setProtocolVersion = (version) => inner.setProtocolVersion?.(version);
    }
  }

  start(): Promise<void> {
    const inner = this.#inner;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      try {
        holdDepth(message, MAX_LONG_DEPTH);
      } catch (error) {
        return this.#refuse(message, extra, error);
      }
      this.onmessage?.(message, extra);
    };
    return inner.start();
  }

  /** A request past the bound is answered on the transport, an answer reaches the server as the refusal. */
  #refuse(message: JSONRPCMessage, extra: MessageExtra, error: unknown): void {
    if (!("id" in message) || message.id === undefined) return;
    const refusal = unreadRefusal(message.id, error);
    // A client gone before the refusal is sent needs none.
    if ("method" in message) this.#inner.send(refusal).catch(() => {});
    else this.onmessage?.(refusal, extra);
  }

  send(message: JSONRPCMessage, options?: Parameters<Transport["send"]>[1]): Promise<void> {
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
