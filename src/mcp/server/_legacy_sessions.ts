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
  readonly #makeServer: () => Server;
  readonly #limits: SessionLimits;

  constructor(makeServer: () => Server, limits: SessionLimits) {
    this.#makeServer = makeServer;
    this.#limits = limits;
  }

  /** Answers a 2025-era request: in the session it names, or by opening one. */
  async handle(request: Request, options: { authInfo?: AuthInfo; parsedBody?: unknown }): Promise<Response> {
    await this.#sweep();
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = this.#sessions.get(id);
      // 404 tells a 2025-era client to open a new session.
      if (session === undefined) return jsonRpcError(404, "Cannot find the session: it ended or never began");
      session.lastSeen = Date.now();
      return await session.transport.handleRequest(request, options);
    }
    if (this.#sessions.size >= this.#limits.maxSessions) {
      return jsonRpcError(
        503,
        `Cannot open a session as the limit of ${this.#limits.maxSessions} open sessions is reached; try again later`,
      );
    }
    const server = this.#makeServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (sessionId) =>
        void this.#sessions.set(sessionId, { transport, server, lastSeen: Date.now() }),
      onsessionclosed: (sessionId) => void this.#sessions.delete(sessionId),
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request, options);
    // A request that opened no session (not an initialize) leaves nothing behind.
    if (transport.sessionId === undefined) await server.close();
    return response;
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

  /** Closes every session. */
  async close(): Promise<void> {
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(sessions.map((session) => session.server.close().catch(() => {})));
  }
}
