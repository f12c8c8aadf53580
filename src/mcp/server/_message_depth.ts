// The stdio server's bound on how deep a client's message nests, held before
// the SDK reads it: the SDK's checks recurse a level at a time, and a
// capability nested 20,000 deep overflowed the stack inside them, answered
// -32603 and reported as the server's failure. The bound is the paced
// parse's on long containers (MAX_LONG_DEPTH), which the fetch handler holds
// its requests to as it parses them.

import { type JSONRPCMessage, ProtocolErrorCode, type Transport } from "@modelcontextprotocol/server";
import { MAX_LONG_DEPTH, nestsPast } from "../_paced_json.ts";

const TOO_DEEP = `Cannot read the message as it nests more than ${MAX_LONG_DEPTH} containers deep`;

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
      if (!nestsPast(message, MAX_LONG_DEPTH)) return this.onmessage?.(message, extra);
      if (!("id" in message)) return;
      const refusal: JSONRPCMessage = {
        jsonrpc: "2.0",
        id: message.id,
        error: { code: ProtocolErrorCode.InvalidRequest, message: TOO_DEEP },
      };
      // A client gone before the refusal is sent needs none.
      if ("method" in message) inner.send(refusal).catch(() => {});
      else this.onmessage?.(refusal, extra);
    };
    return inner.start();
  }

  send(message: JSONRPCMessage, options?: Parameters<Transport["send"]>[1]): Promise<void> {
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
