// A server's input requests as a resume schema: what a host must answer,
// checked like any answer that resumes a parked call. One key per request
// the server made, each answered with the protocol's own result shape (an
// elicitation's `{ action, content }`), so the answers go back to the
// server as its `inputResponses` unchanged.

import { isRecord } from "../../core/common/_is_record.ts";
import type { JsonSchema } from "../../core/schema/schema.ts";

/** One request a server made for input, as it sent it. */
export interface McpInputRequest {
  /** What the server asks for: `elicitation/create` (the one this client declares), `sampling/createMessage`, `roots/list`. */
  readonly method: string;
  /** The request's parameters: for an elicitation, its `message`, `mode` and `requestedSchema` (form) or `url` (URL). */
  readonly params?: Readonly<Record<string, unknown>>;
}

/** What a server's `input_required` answer leaves in a parked call's record. */
export interface McpInputPayload {
  /** The server's name. */
  readonly server: string;
  /** The tool's own name on the server. */
  readonly tool: string;
  /** The server's requests, by key. */
  readonly inputRequests: Readonly<Record<string, McpInputRequest>>;
  /** The server's opaque state, handed back with the answers. */
  readonly requestState?: string;
}

const DECLINED: JsonSchema = {
  type: "object",
  properties: { action: { enum: ["decline", "cancel"] } },
  required: ["action"],
};

/** The answer one request takes: an elicitation's result, or any object for what this client does not model. */
export function answerSchema(request: McpInputRequest): JsonSchema {
  if (request.method !== "elicitation/create") return { type: "object" };
  const params = request.params ?? {};
  if (params.mode === "url") {
    return { type: "object", properties: { action: { enum: ["accept", "decline", "cancel"] } }, required: ["action"] };
  }
  const requested = isRecord(params.requestedSchema) ? params.requestedSchema : { type: "object" };
  return {
    anyOf: [
      {
        type: "object",
        properties: { action: { const: "accept" }, content: requested },
        required: ["action", "content"],
      },
      DECLINED,
    ],
  };
}

/** The schema every answer to a round of requests must meet: one property a request. */
export function answersSchema(requests: Readonly<Record<string, McpInputRequest>>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [key, request] of Object.entries(requests)) properties[key] = answerSchema(request);
  return { type: "object", properties, required: Object.keys(requests), additionalProperties: false };
}

/** Reads a server's `inputRequests` into plain requests; undefined when they are not a map of requests. */
export function readInputRequests(value: unknown): Record<string, McpInputRequest> | undefined {
  if (!isRecord(value)) return undefined;
  const requests: Record<string, McpInputRequest> = {};
  for (const [key, request] of Object.entries(value)) {
    if (!isRecord(request) || typeof request.method !== "string") return undefined;
    requests[key] = {
      method: request.method,
      ...(isRecord(request.params) ? { params: request.params } : {}),
    };
  }
  return requests;
}

/** What a person is shown: the servers' messages, or what is asked for. */
export function inputReason(server: string, tool: string, requests: Readonly<Record<string, McpInputRequest>>): string {
  const messages = Object.values(requests).map((request) => {
    const message = request.params?.message;
    return typeof message === "string" && message.trim() !== "" ? message.trim() : `a ${request.method} answer`;
  });
  return `MCP server "${server}" needs input for "${tool}": ${messages.join("; ")}`.slice(0, 4000);
}
