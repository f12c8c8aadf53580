/**
 * A `ToolSet` served over MCP's Streamable HTTP transport as one web-standard
 * `fetch` handler: the same object runs in `Deno.serve`, `Bun.serve`, a
 * Cloudflare Worker, Vercel's edge runtime and Node. Imports no `node:` module.
 *
 * @module
 */

import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isLegacyRequest,
  localhostAllowedHostnames,
  originValidationResponse,
} from "@modelcontextprotocol/server";
import type { ToolSet } from "../../core/dispatch/tool_set.ts";
import { readBounded } from "./_body_limit.ts";
import {
  holdDepth,
  MAX_LONG_DEPTH,
  MESSAGE_BOUNDS,
  type PacedOptions,
  parsePaced,
  PIECE_CHARS,
  reasonOf,
} from "../_paced_json.ts";
import { slices } from "../../core/common/_slices.ts";
import { MAX_TIMEOUT_MS } from "../../core/dispatch/_call_options.ts";
import { CallGate } from "./_call_gate.ts";
import { noParking, sealedParking } from "./_parking.ts";
import { requestStateCodec } from "./_request_state.ts";
import { LegacySessions } from "./_legacy_sessions.ts";
import { type ServeScope, toolServer } from "./_tool_server.ts";
import { type McpServeOptions, type McpServerInfo, positiveInteger, resolveServeOptions } from "./options.ts";
import { showValue } from "../../core/common/_show_value.ts";

/**
 * A verified caller, as `authorize` returns it: the shape of the SDK's
 * `AuthInfo`, so its `requireBearerAuth` gate fits as it is.
 */
export interface McpAuthInfo {
  /** The access token. */
  readonly token: string;
  /** The client it was issued to; parked calls are sealed for it. */
  readonly clientId: string;
  /** The scopes it grants. */
  readonly scopes: string[];
  /** When it expires, in seconds since the epoch. */
  readonly expiresAt?: number;
  /** The resource it was issued for. */
  readonly resource?: URL;
  /** Anything else the verifier adds. */
  readonly extra?: Record<string, unknown>;
}

/** Options of {@linkcode createMcpFetchHandler}. */
export interface McpFetchHandlerOptions extends McpServeOptions {
  /**
   * The largest request body read, in bytes; a larger one is answered `413`
   * before anything is parsed. Default 1 MiB.
   */
  readonly maxBodyBytes?: number;
  /**
   * The longest a request body may take to arrive, in ms, counted from when
   * its reading begins; one still arriving then is answered `408` and not
   * read further, so a client that sends a byte now and then cannot hold a
   * request open. Default 30 seconds.
   */
  readonly bodyTimeoutMs?: number;
  /**
   * The host names (no port) the `Host` header may name; anything else is
   * answered `403`, which stops DNS-rebinding attacks on a local server.
   * Default: `localhost`, `127.0.0.1` and `[::1]` only, so a deployed server
   * must list its public name. `["*"]` turns the check off.
   */
  readonly allowedHosts?: readonly string[];
  /**
   * The origin host names a browser's `Origin` header may name; a request
   * without an `Origin` (any non-browser client) passes. Default: the same
   * local names as `allowedHosts`. `["*"]` turns the check off.
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * Runs first, before the body is read: answer a `Response` to refuse the
   * request (a `401` with `WWW-Authenticate`), or the verified `AuthInfo`
   * (handed to every handler as `ctx.extensions.authInfo`), or `undefined`
   * to let it through. The SDK's `requireBearerAuth({ verifier })` fits.
   */
  readonly authorize?: (
    request: Request,
  ) => McpAuthInfo | Response | undefined | Promise<McpAuthInfo | Response | undefined>;
  /**
   * How 2025-era clients are served. `"stateless"` (default): each request
   * on its own, so a call that needs a person's approval is answered with a
   * tool error saying so. `"sessionful"`: each 2025-era client gets a
   * session in this process, through which it is asked for approval
   * (elicitation) when it declared it; a load balancer must then route by
   * the `Mcp-Session-Id` header (sticky sessions). With `authorize`, a
   * session serves only the client it named when the session opened.
   * `"reject"`: 2026-07-28 clients only.
   */
  readonly legacy?: "stateless" | "sessionful" | "reject";
  /** With `legacy: "sessionful"`: the most sessions open at once (more are answered `503`). Default 256. */
  readonly maxSessions?: number;
  /** With `legacy: "sessionful"`: how long a session may sit idle before it is closed, in ms. Default 10 minutes. */
  readonly sessionIdleMs?: number;
  /**
   * How answers are shaped: `"auto"` (default) streams (SSE) only when a
   * call sends progress before its result; `"json"` never streams and drops
   * progress; `"sse"` always streams.
   */
  readonly responseMode?: "auto" | "json" | "sse";
}

/** The handler {@linkcode createMcpFetchHandler} returns. */
export interface McpFetchHandler {
  /** Answers one HTTP request; bound, so it can be passed on as it is. Never rejects. */
  readonly fetch: (request: Request) => Promise<Response>;
  /**
   * Sends `notifications/tools/list_changed` to clients listening for it (and to every 2025-era session); call it
   * after changing the set.
   */
  toolsChanged(): void;
  /** Stops the calls in flight and frees the handler. */
  close(): Promise<void>;
}

/** Default bound on a request body: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES: number = 1024 * 1024;
/** Default bound on the time a request body takes to arrive, in ms. */
const DEFAULT_BODY_TIMEOUT_MS = 30_000;
/** Default bound on open 2025-era sessions. */
export const DEFAULT_MAX_SESSIONS = 256;
/** Default idle time after which a 2025-era session is closed: 10 minutes. */
export const DEFAULT_SESSION_IDLE_MS: number = 10 * 60 * 1000;

/** A long request's bounds: a message's, and no deeper than the SDK's checks, which recurse, read. */
const REQUEST_BOUNDS: PacedOptions = Object.freeze({ ...MESSAGE_BOUNDS, maxDepth: MAX_LONG_DEPTH });

/**
 * The request as the Host check reads it. Over HTTP/2 the `:authority` pseudo-header takes the place of Host, and
 * `Deno.serve` puts it only in the URL: a request with no Host header is checked by its URL's host.
 */
function withHost(request: Request): Request {
  return request.headers.has("host")
    ? request
    : new Request(request.url, { headers: { host: new URL(request.url).host } });
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status });
}

function checkNames(value: unknown, name: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string" && item !== "")) {
    throw new TypeError(
      `Cannot serve MCP as ${name} must be an array of host names: current value is ${showValue(value)}`,
    );
  }
  return value.includes("*") ? undefined : [...value];
}

function checkChoice<T extends string>(value: unknown, name: string, choices: readonly T[]): T | undefined {
  if (value === undefined || choices.includes(value as T)) return value as T | undefined;
  throw new TypeError(
    `Cannot serve MCP as ${name} must be one of ${choices.map((c) => `"${c}"`).join(", ")}: current value is ${
      showValue(value)
    }`,
  );
}

/**
 * Serves a tool set over Streamable HTTP as a web-standard `fetch` handler.
 * Speaks the 2026-07-28 revision (stateless: each request stands alone, so
 * any replica can answer it) and, by default, 2025-era clients too.
 *
 * Each request passes, in order: the `Host` check, the `Origin` check,
 * `authorize`, the body bound; then `tools/list` lists the set's
 * descriptors (in name order, every page) and `tools/call` runs the call
 * through `ToolSet.stream` with the set's whole pipeline. A failed call is a
 * tool error (`isError: true`) carrying the failure's model text; an unknown
 * tool is a protocol error. Progress reaches a client that sent a progress
 * token. A dropped request aborts its call, and so does a 2025-era client's
 * `notifications/cancelled` in a session; but a stateless 2025-era request
 * stands alone, so a cancellation sent in a request of its own reaches no
 * call, and in a session the SDK's transport does not tell a dropped request
 * (the call runs on until its timeout or `close()`).
 *
 * The set is read at every request, so a tool registered later is listed at
 * the next `tools/list`; call `toolsChanged()` to tell listening clients.
 *
 * In Node, wrap it: `createServer(async (req, res) => { ... })` with the
 * SDK's `toNodeHandler` from `@modelcontextprotocol/node`, or any
 * `Request`/`Response` bridge.
 *
 * @param toolset The tools to serve.
 * @param info The server's name and version.
 * @param options Limits, host and origin checks, authorization, legacy serving.
 * @returns The handler: `{ fetch, toolsChanged, close }`.
 * @throws {TypeError} On malformed info or options, and when the set and
 * `options.seal` disagree (a set with an approval gate and no seal, a sealed
 * set served without its seal).
 * @throws {RangeError} On a bound that is not a positive integer.
 *
 * @example Serve in Deno and call a tool
 * ```ts
 * import { defineJsonTool, ToolSet } from "@salvor/tools";
 * import { createMcpFetchHandler } from "@salvor/tools/mcp/server";
 * import assert from "node:assert/strict";
 *
 * const add = defineJsonTool({
 *   name: "add",
 *   description: "Add two numbers.",
 *   inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
 *   effects: [],
 *   run: (input: { a: number; b: number }) => ({ sum: input.a + input.b }),
 * });
 * const handler = createMcpFetchHandler(new ToolSet().register(add), { name: "math", version: "1.0.0" });
 *
 * // A 2025-era JSON-RPC request, as any MCP client can send it.
 * const response = await handler.fetch(
 *   new Request("http://localhost/mcp", {
 *     method: "POST",
 *     headers: {
 *       host: "localhost",
 *       "content-type": "application/json",
 *       accept: "application/json, text/event-stream",
 *     },
 *     body: JSON.stringify({
 *       jsonrpc: "2.0",
 *       id: 1,
 *       method: "tools/call",
 *       params: { name: "add", arguments: { a: 2, b: 3 } },
 *     }),
 *   }),
 * );
 * const text = await response.text();
 * assert.match(text, /"sum\\":5/);
 * await handler.close();
 * ```
 */
export function createMcpFetchHandler(
  toolset: ToolSet,
  info: McpServerInfo,
  options: McpFetchHandlerOptions = {},
): McpFetchHandler {
  const resolved = resolveServeOptions(info, options);
  const maxBodyBytes = positiveInteger(options.maxBodyBytes, "options.maxBodyBytes", DEFAULT_MAX_BODY_BYTES);
  const bodyTimeoutMs = positiveInteger(
    options.bodyTimeoutMs,
    "options.bodyTimeoutMs",
    DEFAULT_BODY_TIMEOUT_MS,
    MAX_TIMEOUT_MS,
  );
  const allowedHosts = checkNames(options.allowedHosts, "options.allowedHosts") ??
    (options.allowedHosts === undefined ? localhostAllowedHostnames() : undefined);
  const allowedOrigins = checkNames(options.allowedOrigins, "options.allowedOrigins") ??
    (options.allowedOrigins === undefined ? localhostAllowedHostnames() : undefined);
  const { authorize } = options;
  if (authorize !== undefined && typeof authorize !== "function") {
    throw new TypeError(
      `Cannot serve MCP as options.authorize must be a function: current value is ${showValue(authorize)}`,
    );
  }
  const legacy = checkChoice(options.legacy, "options.legacy", ["stateless", "sessionful", "reject"] as const) ??
    "stateless";
  const responseMode = checkChoice(options.responseMode, "options.responseMode", ["auto", "json", "sse"] as const);

  const codec = requestStateCodec(toolset, options.seal);
  // A 2025-era request over stateless HTTP stands alone: nothing can carry the person's answer back to it.
  const legacyParking = noParking("stateless_legacy");
  const modernParking = codec === undefined ? noParking("no_seal") : sealedParking(toolset, codec);
  const scope: Omit<ServeScope, "parking"> = {
    toolset,
    info,
    options: resolved,
    gate: new CallGate(resolved.maxCallsInFlight),
  };
  const sdk = createMcpHandler(
    ({ era }) => toolServer({ ...scope, parking: era === "legacy" ? legacyParking : modernParking }, codec),
    {
      legacy: legacy === "sessionful" ? "reject" : legacy,
      maxRequestBodySize: maxBodyBytes,
      onerror: resolved.onError,
      ...(responseMode === undefined ? {} : { responseMode }),
    },
  );

  // A session can ask its client, so its parked calls are handed over as for a 2026-07-28 client.
  const sessions = legacy === "sessionful"
    ? new LegacySessions(() => toolServer({ ...scope, parking: modernParking }, codec), {
      maxSessions: positiveInteger(options.maxSessions, "options.maxSessions", DEFAULT_MAX_SESSIONS),
      idleMs: positiveInteger(options.sessionIdleMs, "options.sessionIdleMs", DEFAULT_SESSION_IDLE_MS),
    })
    : undefined;
  const route = async (request: Request, authInfo: McpAuthInfo | undefined, parsedBody?: unknown) =>
    sessions !== undefined && await isLegacyRequest(request, parsedBody, { maxRequestBodySize: maxBodyBytes })
      ? await sessions.handle(request, { authInfo, parsedBody })
      : await sdk.fetch(request, { authInfo, parsedBody });

  const serve = async (request: Request): Promise<Response> => {
    const refused = (allowedHosts && hostHeaderValidationResponse(withHost(request), allowedHosts)) ??
      (allowedOrigins && originValidationResponse(request, allowedOrigins));
    if (refused) return refused;
    let authInfo: McpAuthInfo | undefined;
    if (authorize !== undefined) {
      const verdict = await authorize(request);
      if (verdict instanceof Response) return verdict;
      authInfo = verdict;
    }
    if (request.method !== "POST") return await route(request, authInfo);
    let body: Uint8Array | "size" | "time";
    try {
      body = await readBounded(request, maxBodyBytes, bodyTimeoutMs);
    } catch {
      // The client's stream failed (a reset connection): the request's fault, not the server's.
      return jsonRpcError(400, -32700, "Cannot read the request as its body could not be read to its end");
    }
    if (body === "size") {
      return jsonRpcError(413, -32600, `Cannot read the request as its body is over ${maxBodyBytes} bytes`);
    }
    if (body === "time") {
      return jsonRpcError(408, -32600, `Cannot read the request as its body took over ${bodyTimeoutMs} ms to arrive`);
    }
    let parsedBody: unknown;
    try {
      const text = new TextDecoder().decode(body);
      // A long body is parsed in paced pieces, within the bounds on what the SDK then checks in one stretch; a
      // short one at once, sparing the common request the pause and the promise turn of the paced parse.
      // Either way no deeper than the SDK's checks read without overflowing the stack.
      if (text.length <= PIECE_CHARS) {
        parsedBody = JSON.parse(text);
        holdDepth(parsedBody, MAX_LONG_DEPTH);
      } else {
        parsedBody = await parsePaced(text, slices(), REQUEST_BOUNDS);
      }
    } catch (error) {
      if (error instanceof RangeError) {
        return jsonRpcError(400, -32600, `Cannot read the request as ${reasonOf(error)}`);
      }
      return jsonRpcError(400, -32700, "Cannot read the request as its body is not JSON");
    }
    return await route(request, authInfo, parsedBody);
  };

  let closed = false;
  return {
    fetch: async (request: Request): Promise<Response> => {
      if (closed) return jsonRpcError(503, -32000, "Cannot answer the request as the handler is closed");
      try {
        return await serve(request);
      } catch (error) {
        resolved.onError(error instanceof Error ? error : new Error(String(error)));
        return jsonRpcError(500, -32603, "Cannot answer the request as the server failed; the error is in its log");
      }
    },
    toolsChanged: () => {
      // The SDK's handler tells its own 2026-07-28 listeners only; the 2025-era sessions are this module's.
      sdk.notify.toolsChanged();
      sessions?.toolsChanged();
    },
    close: async () => {
      closed = true;
      await sessions?.close();
      await sdk.close();
    },
  };
}
