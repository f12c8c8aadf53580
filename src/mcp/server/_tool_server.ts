// One SDK server instance for a ToolSet: what both serving entries build,
// once per HTTP request (stateless) or once per stdio connection. It holds
// no state of its own; everything lives in the set and the shared scope.

import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import { answerCall, type CallScope } from "./_call.ts";
import { mcpTools, toolPage } from "./_tool_list.ts";
import type { RequestStateCodec } from "./_request_state.ts";
import { subjectOf } from "./_subject.ts";
import type { McpServerInfo, ResolvedServeOptions } from "./options.ts";

/** What every instance of one served set shares. */
export interface ServeScope extends CallScope {
  readonly info: McpServerInfo;
  readonly options: ResolvedServeOptions;
}

/**
 * Builds a server instance answering tools/list and tools/call from the set.
 * With a codec, every echoed request state is opened and its seal verified
 * before the handler runs; the SDK answers any refusal with -32602.
 */
export function toolServer(scope: ServeScope, codec?: RequestStateCodec): Server {
  const { info, options, toolset } = scope;
  const server = new Server(
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
  server.setRequestHandler("tools/list", (request) => {
    const cursor = request.params?.cursor;
    if (cursor !== undefined && typeof cursor !== "string") {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Cannot list tools as the cursor must be a string");
    }
    return toolPage(mcpTools(toolset.descriptors()).list, cursor, options.pageSize);
  });
  server.setRequestHandler("tools/call", (request, ctx) => answerCall(scope, request, ctx));
  return server;
}
