/**
 * Connecting to an MCP server over Streamable HTTP, or over a transport
 * the host made. Imports no `node:` module, so edge runtimes can use it.
 *
 * @module
 */

import {
  type AuthProvider,
  type OAuthClientProvider,
  StreamableHTTPClientTransport,
  type Transport,
} from "@modelcontextprotocol/client";
import { watchedFetch } from "./_http_watch.ts";
import { boundedFetch, unparkOnDelivery } from "./_http_bodies.ts";
import { ParkedMessages } from "./_paced_message.ts";
import { DEFAULT_MAX_MESSAGE_BYTES, wholeOption } from "./_limits.ts";
import {
  type McpConnectionOptions,
  type McpServerConnection,
  type McpTransportOptions,
  openMcpConnection,
} from "./connection.ts";

/** Options for a server reached over Streamable HTTP. */
export interface McpHttpOptions extends McpConnectionOptions {
  /** The server's MCP endpoint, e.g. `http://127.0.0.1:3001/mcp`. */
  readonly url: string | URL;
  /** Headers sent with every request (an authorization header, ...). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch to use; the global one by default. */
  readonly fetch?: typeof fetch;
  /**
   * Authorization for a server that asks for it, handed to the SDK's
   * transport: a minimal `{ token(), onUnauthorized? }` (a bearer token,
   * refreshed and retried once on a 401), or a full OAuth client provider
   * (`OAuthClientProvider` of `@modelcontextprotocol/client`: discovery,
   * registration, authorization code with PKCE, refresh). Static `headers`
   * still go with every request.
   */
  readonly authProvider?: McpAuthProvider;
}

/**
 * A bearer token for an HTTP server: read before every request; on a 401,
 * `onUnauthorized` runs (refresh it there) and the request is retried once.
 * The SDK's `AuthProvider`, named here by its shape.
 */
export interface McpBearerAuth {
  /** The current token, or undefined when there is none. */
  token(): Promise<string | undefined>;
  /** Makes the next `token()` valid after the server refused the last one. */
  onUnauthorized?(context: never): Promise<void>;
}

/**
 * The SDK's full OAuth client (`OAuthClientProvider` of
 * `@modelcontextprotocol/client`: discovery, registration, authorization
 * code with PKCE, refresh), named here by the members every one has, so
 * that this module's public types do not depend on the SDK's.
 */
export interface McpOAuthClient {
  /** Where the authorization server sends the person back. */
  readonly redirectUrl: string | URL | undefined;
  /** The client's registration metadata. */
  readonly clientMetadata: object;
  /** The client's registration, once it has one. */
  clientInformation(...args: never[]): unknown;
  /** The tokens, once it has some. */
  tokens(...args: never[]): unknown;
  /** Keeps new tokens. */
  saveTokens(...args: never[]): unknown;
  /** Sends the person to the authorization server. */
  redirectToAuthorization(url: URL): unknown;
  /** Keeps the PKCE verifier of an authorization under way. */
  saveCodeVerifier(codeVerifier: string): unknown;
  /** The PKCE verifier of the authorization under way. */
  codeVerifier(): string | Promise<string>;
}

/** Authorization for an HTTP server: a bearer token source, or a full OAuth client. */
export type McpAuthProvider = McpBearerAuth | McpOAuthClient;

/**
 * Connects to an MCP server over Streamable HTTP (`url`) or over an SDK
 * transport the host made (`transport`), lists every tool and returns the
 * live connection.
 *
 * Over HTTP, a request that gets no answer or a response stream that breaks
 * off makes the connection check the endpoint once more; when that gets no
 * HTTP answer at all, the server counts as gone: calls in flight fail as
 * `unavailable` and later calls fail at once. A live server that only
 * dropped a stream keeps the connection. No response body and no SSE
 * event may exceed `maxMessageBytes`: past it, the request a message
 * answers fails alone, naming the limit, and a message that cannot be told
 * apart ends the connection, its calls failing as `unavailable` (see
 * `maxMessageBytes`). Under Deno this takes `--allow-net`.
 *
 * @param options The server's name, where it is, and how to treat its tools.
 * @returns The connection, with the server's tools ready to register.
 * @throws {McpConnectionError} When the server cannot be reached, does not
 * answer `initialize` in time, or lists tools that cannot be registered; the
 * message names the server.
 * @throws {TypeError} On options that are not usable, such as an empty name or a bad URL.
 *
 * @example Connect over an in-memory transport
 * ```ts
 * import { ToolSet } from "@salvor/tools";
 * import { connectMcpServer } from "@salvor/tools/mcp/http";
 * import { McpServer } from "@modelcontextprotocol/server";
 * import { InMemoryTransport } from "@modelcontextprotocol/client";
 * import assert from "node:assert/strict";
 *
 * const server = new McpServer({ name: "demo", version: "1.0.0" });
 * server.registerTool("ping", { description: "Answers pong." }, () => ({ content: [{ type: "text", text: "pong" }] }));
 * const [mine, theirs] = InMemoryTransport.createLinkedPair();
 * await server.connect(theirs);
 *
 * await using demo = await connectMcpServer({ name: "demo", transport: mine });
 * const tools = demo.register(new ToolSet());
 * const done = await tools.call({ id: "1", name: "demo__ping" });
 * assert.deepEqual(done.type === "output" && done.result.content, [{ type: "text", text: "pong" }]);
 * ```
 */
export function connectMcpServer(options: McpHttpOptions | McpTransportOptions): Promise<McpServerConnection> {
  if ("transport" in options && options.transport !== undefined) {
    // Every SDK transport has this shape; the SDK's own type is not part of the public API.
    return openMcpConnection(options.transport as unknown as Transport, options);
  }
  const { url, headers, fetch, authProvider } = options as McpHttpOptions;
  let endpoint: URL;
  let maxMessageBytes: number;
  try {
    maxMessageBytes = wholeOption(options.maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES, "maxMessageBytes", options.name);
  } catch (error) {
    return Promise.reject(error);
  }
  try {
    endpoint = new URL(url);
  } catch {
    return Promise.reject(
      new TypeError(
        `Cannot connect to MCP server "${options.name}" as its url is not a URL: current value is ${
          JSON.stringify(String(url))
        }`,
      ),
    );
  }
  // The SDK's transport never closes on its own when the server dies or
  // floods it, so the watch, and the cap (on a message it cannot tell
  // apart), close it: pending calls then fail as unavailable, and later ones
  // at once.
  let gone: string | undefined;
  const end = (problem: string) => {
    gone ??= problem;
    void transport.close();
  };
  // A long message is parsed in paced pieces before the SDK's transport reads a stand-in of it.
  const parked = new ParkedMessages();
  const transport: StreamableHTTPClientTransport = new StreamableHTTPClientTransport(endpoint, {
    ...(headers ? { requestInit: { headers: { ...headers } } } : {}),
    // Both shapes are the SDK's own, named apart so the public types do not depend on it.
    ...(authProvider ? { authProvider: authProvider as AuthProvider | OAuthClientProvider } : {}),
    fetch: boundedFetch(watchedFetch(endpoint, () => fetch ?? globalThis.fetch, end), {
      maxBytes: maxMessageBytes,
      onTooLarge: end,
      parked,
      // A server's long request that could not be read is answered so, rather than left to its timeout.
      answer: (answer) => void transport.send(answer).catch(() => {}),
      report: (error) => transport.onerror?.(error),
    }),
  });
  unparkOnDelivery(transport, parked);
  return openMcpConnection(transport, options, {
    startProblem: () => undefined,
    exitProblem: () => gone,
    stderr: () => "",
    pid: () => undefined,
  });
}
