// One SDK server instance for a ToolSet: what both serving entries build,
// once per HTTP request (stateless) or once per stdio connection. It holds
// no state of its own; everything lives in the set and the shared scope.

import {
  type JSONRPCRequest,
  type Result,
  Server,
  type ServerContext,
  specTypeSchemas,
} from "@modelcontextprotocol/server";
import { answerCall, type CallScope, gatedCall } from "./_call.ts";
import type { CallGate } from "./_call_gate.ts";
import { mcpTools, toolPage } from "./_tool_list.ts";
import type { RequestStateCodec } from "./_request_state.ts";
import { subjectOf } from "./_subject.ts";
import type { McpServerInfo, ResolvedServeOptions } from "./options.ts";

/** What every instance of one served set shares. */
export interface ServeScope extends CallScope {
  readonly info: McpServerInfo;
  readonly options: ResolvedServeOptions;
  readonly gate: CallGate;
}

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * A server whose every tools/call request holds one place under the gate
 * from its start to its answer. The SDK's shim for a 2025-era client asks
 * for a parked call's input within the request and then calls the handler
 * again: held around the handler, the place was let go while the person
 * was asked (calls waiting so were unbounded), and taken anew for the run,
 * where the approved call was turned away as busy behind newer ones.
 */
class GatedServer extends Server {
  readonly gate: CallGate;

  constructor(gate: CallGate, ...args: ConstructorParameters<typeof Server>) {
    super(...args);
    this.gate = gate;
  }

  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== "tools/call") return wrapped;
    return (request, ctx) => gatedCall(this.gate, () => wrapped(request, ctx));
  }
}

/**
 * Builds a server instance answering tools/list and tools/call from the set.
 * With a codec, every echoed request state is opened and its seal verified
 * before the handler runs; the SDK answers any refusal with -32602.
 */
export function toolServer(scope: ServeScope, codec?: RequestStateCodec): Server {
  const { info, options, toolset } = scope;
  const server = new GatedServer(
    scope.gate,
    { name: info.name, version: info.version, ...(info.title === undefined ? {} : { title: info.title }) },
    {
      capabilities: { tools: { listChanged: true } },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      requestState: {
        verify: (state, ctx) =>
          codec === undefined ? Promise.reject(new Error("no seal")) : codec.open(state, subjectOf(ctx)),
      },
    },
  );
  server.onerror = options.onError;
  // Its params checked by the schema given here: the SDK answers a refusal -32602, where its own check of a spec
  // method's request throws a plain error, answered -32603 as the server's failure.
  server.setRequestHandler(
    "tools/list",
    { params: specTypeSchemas.PaginatedRequestParams },
    ({ cursor }) => toolPage(mcpTools(toolset.descriptors()).list, cursor, options.pageSize),
  );
  server.setRequestHandler("tools/call", (request, ctx) => answerCall(scope, request, ctx));
  return server;
}
