// Sessionful serving for 2025-era clients over HTTP, opted into with
// `legacy: "sessionful"`. A session holds one server instance and its
// transport, so the server can send the client requests of its own (an
// elicitation asking a person to approve a parked call). Sessions live in
// this process: a load balancer must route each request to the process
// whose session it names (sticky on the Mcp-Session-Id header). They are
// bounded in number, and a session idle too long is closed at the next
// request, so no timer keeps a runtime busy.

import { type AuthInfo, type Server, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  /** The client `authorize` named when the session opened: only it may use the session. */
  readonly clientId: string | undefined;
  lastSeen: number;
}

/** Bounds on the sessions one handler keeps. */
export interface SessionLimits {
  readonly maxSessions: number;
  readonly idleMs: number;
}

function jsonRpcError(status: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }, { status });
}

/** The open sessions of one handler. */
export class LegacySessions {
  readonly #sessions = new Map<string, Session>();
  /** Sessions being opened: each holds its place under the bound until it is open or has failed to open. */
  #opening = 0;
  #closed = false;
  readonly #makeServer: () => Server;
  readonly #limits: SessionLimits;

  constructor(makeServer: () => Server, limits: SessionLimits) {
    this.#makeServer = makeServer;
    this.#limits = limits;
  }

  /** Answers a 2025-era request: in the session it names, or by opening one. */
  async handle(request: Request, options: { authInfo?: AuthInfo; parsedBody?: unknown }): Promise<Response> {
    await this.#sweep();
    if (this.#closed) return jsonRpcError(503, "Cannot answer the request as the handler is closed");
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = this.#sessions.get(id);
      // 404 tells a 2025-era client to open a new session. Another client's session is answered as one that is not
      // there: a session id alone, learnt or guessed, does not open it.
      if (session === undefined || session.clientId !== options.authInfo?.clientId) {
        return jsonRpcError(404, "Cannot find the session: it ended or never began");
      }
      session.lastSeen = Date.now();
      return await session.transport.handleRequest(request, options);
    }
    // Counted with the sessions still opening: a burst of initialize requests all passed a check of the open ones.
    if (this.#sessions.size + this.#opening >= this.#limits.maxSessions) {
      return jsonRpcError(
        503,
        `Cannot open a session as the limit of ${this.#limits.maxSessions} open sessions is reached; try again later`,
      );
    }
    const server = this.#makeServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (sessionId) =>
        void this.#sessions.set(sessionId, {
          transport,
          server,
          clientId: options.authInfo?.clientId,
          lastSeen: Date.now(),
        }),
      onsessionclosed: (sessionId) => void this.#sessions.delete(sessionId),
    });
    this.#opening++;
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(request, options);
      // A request that opened no session (not an initialize), or one that did as the handler closed, leaves nothing.
      if (transport.sessionId === undefined || this.#closed) {
        if (transport.sessionId !== undefined) this.#sessions.delete(transport.sessionId);
        await server.close();
      }
      return response;
    } finally {
      this.#opening--;
    }
  }

  /** Sends `notifications/tools/list_changed` to every open session; a client gone misses it. */
  toolsChanged(): void {
    for (const session of this.#sessions.values()) session.server.sendToolListChanged().catch(() => {});
  }

  /** How many sessions are open. */
  get size(): number {
    return this.#sessions.size;
  }

  async #sweep(): Promise<void> {
    const stale = Date.now() - this.#limits.idleMs;
    for (const [id, session] of this.#sessions) {
      if (session.lastSeen < stale) {
        this.#sessions.delete(id);
        await session.server.close().catch(() => {});
      }
    }
  }

  /** Closes every session; the handler opens none after. */
  async close(): Promise<void> {
    this.#closed = true;
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(sessions.map((session) => session.server.close().catch(() => {})));
  }
}
