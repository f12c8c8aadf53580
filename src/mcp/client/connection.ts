/**
 * A live connection to one MCP server: its tools as `DynTool`s, kept in
 * step with the server's tool list and with every tool set they were
 * registered into.
 *
 * @module
 */

import {
  type CallToolResult,
  Client,
  type ContentBlock,
  isInputRequiredResult,
  type JSONRPCMessage,
  type PriorDiscovery,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  specTypeSchemas,
  type StandardSchemaV1,
  type Tool,
  type Transport,
} from "@modelcontextprotocol/client";
import type { DynTool, ToolContext, ValidatedInvocation } from "../../core/contract/dyn.ts";
import type { ExecutionEvent } from "../../core/contract/events.ts";
import { type FailureKind, type ToolFailure, toolFailure } from "../../core/contract/failure.ts";
import { compileSchema } from "../../core/schema/compile_schema.ts";
import { mayRetryKind } from "../../core/dispatch/retry.ts";
import type { CompiledSchema } from "../../core/schema/schema.ts";
import { FALLBACK } from "../../core/schema/_apart.ts";
import { linearPatterns } from "../../core/schema/validator/linear_patterns.ts";
import { describeTool, type ToolDescriptor, unboundedField } from "../../core/contract/spec.ts";
import { markChecked } from "../../core/define/_checked.ts";
import { parserFor } from "../../core/define/_parser.ts";
import { InvalidSpecError } from "../../core/common/errors.ts";
import { contentParts, cutNote, errorText } from "./_content.ts";
import {
  DEFAULT_MAX_CONTENT_BYTES,
  DEFAULT_MAX_CONTENT_CHARS,
  DEFAULT_MAX_DESCRIPTION_CHARS,
  DEFAULT_MAX_TOOLS,
  MAX_OPTION,
  wholeOption,
} from "./_limits.ts";
import { type McpToolAnnotations, type McpToolEffects, mcpToolEffects } from "./effects.ts";
import { readMcpFailureMeta, readMcpToolContract } from "../../providers/mcp.ts";
import { mcpToolName } from "./names.ts";
import { cfworkerValidator } from "./_validator.ts";
import { isRecord } from "../../core/common/_is_record.ts";
import { slices } from "../../core/common/_slices.ts";
import { isUnreadAnswer } from "./_paced_message.ts";
import {
  answersSchema,
  inputReason,
  type McpInputPayload,
  type McpInputRequest,
  readInputRequests,
} from "./_input_requests.ts";

export type { McpInputPayload, McpInputRequest };

/** The host's settings for one tool of a server, keyed by the server's own tool name. */
export interface McpToolOverride extends McpToolEffects {
  /** The default call timeout for this tool, in ms. */
  readonly timeoutMs?: number;
}

/** Something about one of a server's tools the host should know: it was cut or left out. */
export interface McpToolWarning {
  /** The tool's own name on the server. */
  readonly tool: string;
  /** What was done to it, and why. */
  readonly message: string;
}

/**
 * What changed in a server's tool list, by registered name. A change is
 * applied to every tool set the connection registered into, or to none:
 * with an `error`, every set is left as it was and the lists say what the
 * server's new list would have changed.
 */
export interface McpToolsChange {
  /** Tools the server added. */
  readonly added: readonly string[];
  /** Tools the server removed. */
  readonly removed: readonly string[];
  /** Tools whose description, schemas or annotations changed. */
  readonly changed: readonly string[];
  /** Why the change could not be read or applied, if it could not; nothing was applied then. */
  readonly error?: Error;
  /** What was cut or left out of the new list (see {@linkcode McpServerConnection.warnings}); absent when nothing was. */
  readonly warnings?: readonly McpToolWarning[];
}

/** Options every MCP connection takes, whatever its transport. */
export interface McpConnectionOptions {
  /** The server's name: the prefix of its tools' names (`<name>__<tool>`) and the name in errors. */
  readonly name: string;
  /** Whether the server's tool annotations may decide its tools' effects. Default false. */
  readonly trusted?: boolean;
  /** Per-tool effects and timeouts, keyed by the server's own tool name; they win over annotations. */
  readonly tools?: Readonly<Record<string, McpToolOverride>>;
  /** The default timeout of each call in ms, unless a tool override sets one. Default 60 000. */
  readonly callTimeoutMs?: number;
  /** How long connecting (start, initialize, first tool list) may take, in ms. Default 10 000. */
  readonly connectTimeoutMs?: number;
  /** The most `tools/list` pages read before giving up. Default 100. */
  readonly maxPages?: number;
  /**
   * The most tools the server may list. A longer list is refused: connecting
   * fails with an {@linkcode McpConnectionError} naming the limit, and a
   * refresh reports it as its `error` and changes nothing. Default 1 000.
   */
  readonly maxTools?: number;
  /**
   * The longest message read from the server, in bytes: a stdio line, an
   * HTTP response body, or one event of an SSE stream. Past it, the request
   * a message answers fails alone (a call as `invalid_output`, with a
   * message naming this limit) and the connection goes on. A stdio line or
   * an SSE event is skipped to its end, never held, when it starts as an
   * object that names its id (at its start, or last, as the SDK's servers
   * write it): an answer fails its request and a request of the server's
   * is answered with an error (at once, before its end, when its id comes
   * first), a notification is dropped; an answer in the response to an HTTP
   * request is cut there. Any other message that long, or one that runs on
   * past 256 MiB, ends the connection, since a call may
   * be waiting for it (calls in flight fail as `unavailable` with a message
   * naming this limit, and so does connecting), or, in the response to an
   * HTTP request, fails the requests it answers. Applies to the stdio and
   * HTTP transports; a transport the host made bounds its own messages.
   * Default 6 MiB (6 291 456): the text of a message is copied once in one
   * stretch as it is parsed, about 2 ms a MiB on two cores at worst, so a
   * higher bound lets a server hold the host for longer.
   */
  readonly maxMessageBytes?: number;
  /**
   * The most characters of a tool result the model is shown: text, resource
   * text and the parts' uris, names, mime types and descriptions, across
   * all parts. The first text past it is cut with a note the model reads
   * (`[... 49,900,000 more characters cut by the host]`), later parts are
   * left out with a note; the whole result stays in `result.details.content`
   * for the host. An error result's text is cut to it too, and so is the
   * JSON of `structuredContent` the model is shown when the result has no
   * content (the whole value stays in `result.output`). Default 100 000.
   */
  readonly maxContentChars?: number;
  /**
   * The most bytes of base64 image, audio and blob data of a tool result
   * the model is shown, across all parts; a part that does not fit is left
   * out with a note, and stays in `result.details.content`. Default 5 MiB
   * (5 242 880).
   */
  readonly maxContentBytes?: number;
  /**
   * The longest tool description the model is shown, in characters; a
   * longer one is cut with a note and a warning (see
   * {@linkcode McpServerConnection.warnings}). Default 4 000.
   */
  readonly maxDescriptionChars?: number;
  /** How this client names itself to the server. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** Receives each change of the server's tool list, after it is applied. */
  readonly onToolsChanged?: (change: McpToolsChange) => void;
  /**
   * Receives protocol problems that do not end the connection (a garbled line, a failed notification, a server
   * that keeps saying its tool list changed).
   */
  readonly onError?: (error: Error) => void;
  /**
   * Answers a server's requests for input at once, for hosts with a person
   * at hand. It gets each request (an elicitation's message and schema) and
   * returns the protocol's answer: `{ action: "accept", content }`,
   * `{ action: "decline" }` or `{ action: "cancel" }`, checked against the
   * request's schema. Without it, a 2026-07-28 server's `input_required`
   * answer parks the call as a `suspended` terminal whose record resumes
   * with `toolset.resume(record, answers)`, and a 2025-era server's
   * `elicitation/create` request is declined. A request whose schema does
   * not compile as an untrusted one (a pattern the linear-time engine
   * cannot express) is never asked: the call fails, naming the pattern. A
   * 2025-era request that comes with no call of the connection in flight,
   * or while as many are being answered as calls are in flight, is declined
   * unasked.
   */
  readonly onInputRequest?: (request: McpInputRequest, context: McpInputContext) => unknown;
  /**
   * What an earlier connection learnt of the server's protocol era
   * ({@linkcode McpServerConnection.prior}), to skip the `server/discover`
   * probe. Reuse it only for the same server and credentials.
   */
  readonly prior?: McpPrior;
}

/** Where an input request comes from. */
export interface McpInputContext {
  /** The server's name. */
  readonly server: string;
  /** The tool's own name on the server, when the request came in a tool call's answer. */
  readonly tool?: string;
  /** Aborted when the call that asked stops. */
  readonly signal: AbortSignal;
}

/**
 * A server's protocol era as one connection learnt it: `legacy` for a
 * 2025-era server (`initialize`), `modern` with its `server/discover`
 * answer for a 2026-07-28 one.
 */
export type McpPrior =
  | { readonly kind: "legacy" }
  | { readonly kind: "modern"; readonly discover: Readonly<Record<string, unknown>> };

/** A `DynTool` backed by a tool of an MCP server. */
export interface McpTool extends DynTool {
  /** The server's name, as the host gave it. */
  readonly server: string;
  /** The tool's own name on the server; calls use it. */
  readonly toolName: string;
  /** The server's hints for the tool, as it sent them. */
  readonly annotations: McpToolAnnotations | undefined;
}

/** The registry operations a connection needs; `ToolSet` has them. */
export interface McpToolRegistry {
  /** Adds tools, all or none; throws on a name that is taken. */
  register(...tools: DynTool[]): unknown;
  /**
   * Removes tools (by identity) and adds others, all or none; throws when a
   * tool to remove is not held or a name to add is taken.
   */
  replace(removed: readonly DynTool[], added: readonly DynTool[]): unknown;
  /** Looks a tool up by name. */
  get(name: string): DynTool | undefined;
}

/** Why connecting to an MCP server failed; the message names the server. */
export class McpConnectionError extends Error {
  /** The server's name. */
  readonly server: string;
  /** The tail of what the server wrote to stderr, for diagnostics ("" when none or not a process). */
  readonly stderr: string;

  /**
   * Makes the error.
   *
   * @param server The server's name.
   * @param message What failed, naming the server.
   * @param options The server's stderr tail and the underlying cause.
   */
  constructor(server: string, message: string, options: { stderr?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "McpConnectionError";
    this.server = server;
    this.stderr = options.stderr ?? "";
  }
}

/** What a transport can tell about the server behind it beyond the protocol. */
export interface ServerProcessInfo {
  /** Why it could not start, as a phrase ("its command \"x\" was not found"), when it could not. */
  startProblem(): string | undefined;
  /** How it ended, as a phrase ("it exited with code 1"), once it has. */
  exitProblem(): string | undefined;
  /** The tail of its stderr. */
  stderr(): string;
  /** Its process id, also its process group's id, once it started. */
  pid(): number | undefined;
}

const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_PAGES = 100;
// The SDK's own request timer must never fire before the ToolSet's, which
// tells a timeout from a cancellation: the largest delay a timer accepts.
const NO_SDK_TIMEOUT = MAX_OPTION;
const SESSION_END_MS = 1_000;
/** How many refreshes may run back to back, each within REFRESH_PAUSE_MS of the last, before the next waits. */
const MAX_BACK_TO_BACK_REFRESHES = 4;
/** How long after its last refresh a server that keeps saying its tool list changed is listed again, in ms. */
const REFRESH_PAUSE_MS = 1_000;
/** How many rounds of input a live handler may answer for one call: past it the server counts as looping. */
const MAX_INPUT_ROUNDS = 16;
/** A W3C trace context `traceparent` value. */
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
/** The `tracestate` W3C Trace Context has every vendor pass on (512 characters); a longer one is left out. */
const MAX_TRACESTATE = 512;

/**
 * The W3C trace context a call's `traceparent` and `tracestate` extensions
 * (a tracer's, see `@salvor/tools/otel`, or the host's own) carry to the
 * server in `_meta`; a malformed `traceparent` sends neither.
 */
function traceMeta(extensions: Readonly<Record<string, unknown>>): { traceparent?: string; tracestate?: string } {
  const { traceparent, tracestate } = extensions;
  if (typeof traceparent !== "string" || !TRACEPARENT.test(traceparent)) return {};
  return typeof tracestate === "string" && tracestate.length > 0 && tracestate.length <= MAX_TRACESTATE
    ? { traceparent, tracestate }
    : { traceparent };
}

// Results are read field by field here, so that one malformed tool does not
// sink its whole page and a malformed call result is reported as such.
const ANY_RESULT: StandardSchemaV1<unknown, Record<string, unknown>> = {
  "~standard": {
    version: 1,
    vendor: "salvor",
    validate: (value) => isRecord(value) ? { value } : { issues: [{ message: "the result is not an object" }] },
  },
};

/** The first problem a spec schema of the SDK found, as text. */
function issuesOf(result: StandardSchemaV1.Result<unknown>): string {
  const issue = result.issues?.[0];
  if (!issue) return "";
  const path = (issue.path ?? []).map((key) => typeof key === "object" ? String(key.key) : String(key)).join("/");
  return `${path === "" ? "" : `/${path}: `}${issue.message}`;
}

interface Built {
  readonly tool: McpServerTool;
  readonly fingerprint: string;
}

/** A server's listed tools, and the entries left out as malformed. */
interface Listed {
  readonly tools: readonly Tool[];
  readonly warnings: readonly McpToolWarning[];
}

/** A server's tools by registered name, and what was cut or left out of them. */
interface BuiltList {
  readonly tools: Map<string, Built>;
  readonly warnings: readonly McpToolWarning[];
}

/**
 * The schema answers to a server's input requests must meet, compiled as a server's tool schemas are: untrusted,
 * its patterns on the linear-time engine.
 *
 * @throws {InvalidSpecError} When it does not compile so: a pattern that engine cannot express, one over the limits.
 */
function untrustedAnswers(requests: Readonly<Record<string, McpInputRequest>>, label: string): CompiledSchema {
  return compileSchema(answersSchema(requests), { label, patterns: linearPatterns });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Why one of a listed tool's schemas is over the schema limits, or `undefined` when neither is. */
function unboundedSchema(listed: unknown): string | undefined {
  if (!isRecord(listed)) return undefined;
  for (const field of ["inputSchema", "outputSchema"] as const) {
    const problem = listed[field] === undefined ? undefined : unboundedField(field, listed[field]);
    if (problem) return problem.message;
  }
  return undefined;
}

/** Whether the SDK refused a result's shape. */
function isSchemaError(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.InvalidResult;
}

class McpServerTool implements McpTool {
  readonly descriptor: ToolDescriptor;
  readonly server: string;
  readonly toolName: string;
  readonly annotations: McpToolAnnotations | undefined;
  readonly parseInput: DynTool["parseInput"];
  readonly parseOutput: DynTool["parseOutput"];
  readonly #call: CallTool;

  constructor(connection: McpServerConnection, call: CallTool, descriptor: ToolDescriptor, tool: Tool) {
    this.#call = call;
    this.descriptor = descriptor;
    this.server = connection.name;
    this.toolName = tool.name;
    this.annotations = tool.annotations;
    // A server's schemas are untrusted: their patterns run on the linear-time engine.
    this.parseInput = parserFor(
      compileSchema(descriptor.inputSchema, {
        label: `input schema of "${descriptor.name}"`,
        patterns: linearPatterns,
      }),
    );
    this.parseOutput = descriptor.outputSchema === undefined ? undefined : parserFor(
      compileSchema(descriptor.outputSchema, {
        label: `output schema of "${descriptor.name}"`,
        patterns: linearPatterns,
      }),
    );
    markChecked(this);
  }

  async *execute(invocation: ValidatedInvocation, ctx: ToolContext): AsyncGenerator<ExecutionEvent> {
    yield await this.#call(this, invocation.input, ctx);
  }
}

type CallTool = (tool: McpServerTool, input: unknown, ctx: ToolContext) => Promise<ExecutionEvent>;

const CONNECTION_TOKEN = Symbol("McpServerConnection");
let openConnection: (connection: McpServerConnection, timeoutMs: number) => Promise<void>;

/**
 * A connection to one MCP server. Made by `connectMcpServer`; it lists
 * every tool the server has (all pages), surfaces each as a {@linkcode McpTool},
 * registers them into tool sets beside native tools, follows the server's
 * `notifications/tools/list_changed`, and closes with `close()` or
 * `await using`.
 *
 * @example Register a server's tools beside native ones
 * ```ts
 * import { ToolSet } from "@salvor/tools";
 * import { connectMcpServer } from "@salvor/tools/mcp";
 * import { McpServer } from "@modelcontextprotocol/server";
 * import { InMemoryTransport } from "@modelcontextprotocol/client";
 * import assert from "node:assert/strict";
 *
 * const server = new McpServer({ name: "demo", version: "1.0.0" });
 * server.registerTool("shout", { description: "Upper-cases a text." }, () => ({
 *   content: [{ type: "text", text: "HELLO" }],
 * }));
 * const [mine, theirs] = InMemoryTransport.createLinkedPair();
 * await server.connect(theirs);
 *
 * await using demo = await connectMcpServer({ name: "demo", transport: mine });
 * const tools = demo.register(new ToolSet());
 * assert.equal(tools.has("demo__shout"), true);
 * const done = await tools.call({ id: "1", name: "demo__shout", arguments: "{}" });
 * assert.equal(done.type === "output" && done.result.content[0].type, "text");
 * ```
 */
export class McpServerConnection implements AsyncDisposable {
  /** The server's name, the prefix of its tools' names. */
  readonly name: string;
  readonly #client: Client;
  readonly #transport: Transport;
  readonly #options: McpConnectionOptions;
  readonly #process: ServerProcessInfo | undefined;
  readonly #callTimeoutMs: number;
  readonly #maxPages: number;
  readonly #maxTools: number;
  readonly #maxDescriptionChars: number;
  readonly #budget: { readonly chars: number; readonly bytes: number };
  readonly #registries = new Set<McpToolRegistry>();
  #tools = new Map<string, Built>();
  #warnings: readonly McpToolWarning[] = [];
  #lost: string | undefined;
  #closing: Promise<void> | undefined;
  #refreshing: Promise<McpToolsChange> | undefined;
  #refreshAgain = false;
  /** Set until the first tool list is in place: a list_changed meanwhile is followed after it (see #listChanged). */
  #connecting = true;
  /** When the last refresh ended, in ms since the epoch, and how many ran back to back until then (see #paced). */
  #refreshedAt = -Infinity;
  #backToBack = 0;
  /** Aborted on close: ends a refresh's wait. */
  readonly #ending = new AbortController();
  /** When the server's tool list goes stale (its `ttlMs`), in ms since the epoch; undefined when it said nothing. */
  #staleAt: number | undefined;
  /** Progress callbacks by our own progress token, one a call in flight: see #tapProgress. */
  readonly #progress = new Map<string, (params: Record<string, unknown>) => void>();
  /** How many of a 2025-era server's elicitations the live handler is answering: see #elicit. */
  #eliciting = 0;
  #nextToken = 0;

  /**
   * Internal: use `connectMcpServer`.
   *
   * @param token The module's private token.
   * @param transport The transport to the server.
   * @param options The connection's options.
   * @param process What the transport knows about the server's process, if it is one.
   * @throws {TypeError} When called from outside this module.
   */
  constructor(
    token: symbol,
    transport: Transport,
    options: McpConnectionOptions,
    process: ServerProcessInfo | undefined,
  ) {
    if (token !== CONNECTION_TOKEN) {
      throw new TypeError("Cannot make an McpServerConnection directly as only connectMcpServer may make one");
    }
    this.name = options.name;
    this.#client = new Client(
      options.clientInfo ?? { name: "salvor-tools", version: "0.1.0" },
      {
        // Elicitation is the one request this client can always answer: live
        // through onInputRequest, parked as a suspension, or declined. A live
        // answer that leaves a field out gets the server's default for it.
        capabilities: { elicitation: { form: { applyDefaults: true }, url: {} } },
        jsonSchemaValidator: cfworkerValidator,
        // Input requests are parked or answered here, never by the SDK's handlers.
        inputRequired: { autoFulfill: false },
        listChanged: {
          tools: {
            autoRefresh: false,
            debounceMs: 0,
            onChanged: () => this.#listChanged(),
          },
        },
      },
    );
    this.#client.setRequestHandler("elicitation/create", (request, ctx) => this.#elicit(request, ctx.mcpReq.signal));
    this.#transport = transport;
    this.#options = options;
    this.#process = process;
    this.#callTimeoutMs = wholeOption(options.callTimeoutMs, DEFAULT_CALL_TIMEOUT_MS, "callTimeoutMs", options.name);
    this.#maxPages = wholeOption(options.maxPages, DEFAULT_MAX_PAGES, "maxPages", options.name);
    this.#maxTools = wholeOption(options.maxTools, DEFAULT_MAX_TOOLS, "maxTools", options.name);
    this.#maxDescriptionChars = wholeOption(
      options.maxDescriptionChars,
      DEFAULT_MAX_DESCRIPTION_CHARS,
      "maxDescriptionChars",
      options.name,
    );
    this.#budget = {
      chars: wholeOption(options.maxContentChars, DEFAULT_MAX_CONTENT_CHARS, "maxContentChars", options.name),
      bytes: wholeOption(options.maxContentBytes, DEFAULT_MAX_CONTENT_BYTES, "maxContentBytes", options.name),
    };
  }

  /** The server's tools, in the server's order. */
  get tools(): readonly McpTool[] {
    return [...this.#tools.values()].map((built) => built.tool);
  }

  /**
   * What was cut or left out of the server's current tool list: a
   * description longer than `maxDescriptionChars` (cut), a tool whose spec
   * or schema cannot be used (left out, the rest of the server still works).
   * Replaced on every refresh.
   */
  get warnings(): readonly McpToolWarning[] {
    return this.#warnings;
  }

  /** The server's name and version, as it introduced itself. */
  get serverInfo(): { readonly name: string; readonly version: string } | undefined {
    return this.#client.getServerVersion();
  }

  /** Whether the connection is closed or the server is gone; calls then fail at once as `unavailable`. */
  get closed(): boolean {
    return this.#lost !== undefined;
  }

  /**
   * The id of the server's process, which is also the id of the process
   * group it runs in (kept after it exits, to check nothing of it is left);
   * `undefined` for servers that are not processes.
   */
  get pid(): number | undefined {
    return this.#process?.pid();
  }

  /** The tail of what the server wrote to stderr (bounded); "" for servers that are not processes. */
  get stderr(): string {
    return this.#process?.stderr() ?? "";
  }

  /**
   * The protocol revision the connection speaks: `2026-07-28`, `2025-11-25`,
   * `2025-06-18`, `2025-03-26`, ...
   *
   * @example A server connected over a plain transport speaks a 2025 revision
   * ```ts
   * import { connectMcpServer } from "@salvor/tools/mcp";
   * import { McpServer } from "@modelcontextprotocol/server";
   * import { InMemoryTransport } from "@modelcontextprotocol/client";
   * import assert from "node:assert/strict";
   *
   * const server = new McpServer({ name: "demo", version: "1.0.0" });
   * server.registerTool("ping", { description: "Answers pong." }, () => ({ content: [] }));
   * const [mine, theirs] = InMemoryTransport.createLinkedPair();
   * await server.connect(theirs);
   * await using demo = await connectMcpServer({ name: "demo", transport: mine });
   * assert.equal(demo.era, "legacy");
   * assert.match(demo.protocolVersion ?? "", /^2025-/);
   * assert.deepEqual(demo.prior, { kind: "legacy" });
   * ```
   */
  get protocolVersion(): string | undefined {
    return this.#client.getNegotiatedProtocolVersion();
  }

  /**
   * The protocol's era: `modern` for 2026-07-28 and later (stateless, no
   * `initialize`, input requests in tool results), `legacy` for the 2025
   * revisions (a session opened with `initialize`, elicitation as a request).
   */
  get era(): "modern" | "legacy" | undefined {
    return this.#client.getProtocolEra();
  }

  /**
   * What this connection learnt of the server's era, to hand to the next
   * connection's `prior` option so that it skips the `server/discover`
   * probe; plain JSON, to keep beside the server's address.
   */
  get prior(): McpPrior | undefined {
    const era = this.era;
    if (era === "legacy") return { kind: "legacy" };
    const discover = this.#client.getDiscoverResult();
    return era === "modern" && discover ? { kind: "modern", discover: discover as Record<string, unknown> } : undefined;
  }

  /**
   * Registers every tool of the server into a tool set, all or none, and
   * keeps that set in step when the server's tool list changes.
   *
   * @param registry The tool set (a `ToolSet`, or anything with its register, replace and get).
   * @returns The same tool set, for chaining.
   * @throws {RegistryError} When a name is already taken in the set; nothing is added.
   *
   * @example See {@linkcode McpServerConnection}.
   * ```ts
   * import { ToolSet } from "@salvor/tools";
   * import { connectMcpServer } from "@salvor/tools/mcp";
   * import { McpServer } from "@modelcontextprotocol/server";
   * import { InMemoryTransport } from "@modelcontextprotocol/client";
   * import assert from "node:assert/strict";
   *
   * const server = new McpServer({ name: "demo", version: "1.0.0" });
   * server.registerTool("ping", { description: "Answers pong." }, () => ({ content: [{ type: "text", text: "pong" }] }));
   * const [mine, theirs] = InMemoryTransport.createLinkedPair();
   * await server.connect(theirs);
   * await using demo = await connectMcpServer({ name: "demo", transport: mine });
   * assert.deepEqual(demo.register(new ToolSet()).descriptors().map((d) => d.name), ["demo__ping"]);
   * ```
   */
  register<R extends McpToolRegistry>(registry: R): R {
    registry.register(...this.tools);
    this.#registries.add(registry);
    return registry;
  }

  /**
   * Reads the server's tool list again, applies the change to every tool
   * set the tools were registered into, and reports it. Runs on its own
   * when the server sends `notifications/tools/list_changed` (for one sent
   * while connecting, once the first list is in place); past four
   * refreshes back to back, a server that keeps sending it is listed again
   * once a second, and `onError` is told once. Only tools this connection
   * registered are ever removed or replaced, by identity, and a changed
   * tool only where a set still holds its old version (one the host
   * unregistered stays out); the change is applied to every set or to
   * none, so a new tool whose name a set already uses for another tool
   * leaves every set as it was and is reported as the change's `error`.
   *
   * @returns What changed, with an `error` when it could not be read or applied (then nothing changed).
   *
   * @example A server with an unchanged list reports nothing
   * ```ts
   * import { connectMcpServer } from "@salvor/tools/mcp";
   * import { McpServer } from "@modelcontextprotocol/server";
   * import { InMemoryTransport } from "@modelcontextprotocol/client";
   * import assert from "node:assert/strict";
   *
   * const server = new McpServer({ name: "demo", version: "1.0.0" });
   * server.registerTool("ping", { description: "Answers pong." }, () => ({ content: [] }));
   * const [mine, theirs] = InMemoryTransport.createLinkedPair();
   * await server.connect(theirs);
   * await using demo = await connectMcpServer({ name: "demo", transport: mine });
   * assert.deepEqual(await demo.refresh(), { added: [], removed: [], changed: [] });
   * ```
   */
  refresh(): Promise<McpToolsChange> {
    if (this.#refreshing) {
      this.#refreshAgain = true;
      return this.#refreshing;
    }
    this.#refreshing = this.#refreshLoop().finally(() => this.#refreshing = undefined);
    return this.#refreshing;
  }

  /** Follows the server's `notifications/tools/list_changed`: while connecting, once the first list is in place. */
  #listChanged(): void {
    if (this.#connecting) {
      this.#refreshAgain = true;
      return;
    }
    this.refresh().catch((error) => this.#options.onError?.(error));
  }

  async #refreshLoop(): Promise<McpToolsChange> {
    let change: McpToolsChange;
    do {
      await this.#paced();
      this.#refreshAgain = false;
      change = await this.#refreshOnce();
      this.#refreshedAt = Date.now();
      try {
        this.#options.onToolsChanged?.(change);
      } catch (error) {
        this.#options.onError?.(error instanceof Error ? error : new Error(String(error)));
      }
    } while (this.#refreshAgain && !this.closed);
    return change;
  }

  /**
   * Waits, once a few refreshes ran back to back, until the last one is REFRESH_PAUSE_MS old: a server that keeps
   * saying its tool list changed is listed at that pace, what it says meanwhile coalesced into one refresh.
   */
  async #paced(): Promise<void> {
    const since = Date.now() - this.#refreshedAt;
    this.#backToBack = since < REFRESH_PAUSE_MS ? this.#backToBack + 1 : 0;
    if (this.#backToBack < MAX_BACK_TO_BACK_REFRESHES) return;
    if (this.#backToBack === MAX_BACK_TO_BACK_REFRESHES) {
      this.#options.onError?.(
        new McpConnectionError(
          this.name,
          `Cannot follow the tool list of MCP server "${this.name}" at once as it sent list_changed during ${MAX_BACK_TO_BACK_REFRESHES} refreshes in a row: it is listed again every ${REFRESH_PAUSE_MS} ms while it goes on`,
        ),
      );
    }
    const { signal } = this.#ending;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, REFRESH_PAUSE_MS - since);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  async #refreshOnce(): Promise<McpToolsChange> {
    let next: BuiltList;
    try {
      next = await this.#build(await this.#listAll({ timeout: this.#callTimeoutMs }));
    } catch (error) {
      return { added: [], removed: [], changed: [], error: error instanceof Error ? error : new Error(String(error)) };
    }
    const previous = this.#tools;
    const added: string[] = [];
    const removed: string[] = [];
    const changed: string[] = [];
    // An unchanged tool keeps its identity: it is the one the tool sets hold.
    const tools = new Map<string, Built>();
    for (const [name, built] of next.tools) {
      const old = previous.get(name);
      if (!old) added.push(name);
      else if (old.fingerprint !== built.fingerprint) changed.push(name);
      tools.set(name, old && old.fingerprint === built.fingerprint ? old : built);
    }
    for (const name of previous.keys()) if (!next.tools.has(name)) removed.push(name);
    const warnings = next.warnings.length === 0 ? {} : { warnings: next.warnings };
    const applied: [McpToolRegistry, McpServerTool[], McpServerTool[]][] = [];
    try {
      for (const registry of this.#registries) {
        // Only what this connection registered and the set still holds goes: never a tool of the host's. A changed
        // tool is replaced only where its old version still is: one the host took out stays out.
        const holds = (name: string) => registry.get(name) === previous.get(name)!.tool;
        const held = [...removed, ...changed].filter(holds).map((name) => previous.get(name)!.tool);
        const incoming = [...added, ...changed.filter(holds)].map((name) => tools.get(name)!.tool);
        registry.replace(held, incoming);
        applied.push([registry, held, incoming]);
      }
    } catch (error) {
      for (const [registry, held, incoming] of applied.reverse()) registry.replace(incoming, held);
      return {
        added,
        removed,
        changed,
        error: new McpConnectionError(
          this.name,
          `Cannot apply the new tool list of MCP server "${this.name}" as ${describe(error)}; no tool set changed`,
          { cause: error },
        ),
        ...warnings,
      };
    }
    this.#tools = tools;
    this.#warnings = next.warnings;
    return { added, removed, changed, ...warnings };
  }

  /**
   * Lists every page of tools, guarding against a repeated cursor, endless
   * paging and too many tools. Each tool is read on its own, so one
   * malformed tool is left out (with a warning) rather than the whole page.
   */
  async #listAll(options: { timeout: number; signal?: AbortSignal }): Promise<Listed> {
    const tools: Tool[] = [];
    const warnings: McpToolWarning[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    let ttl: number | undefined;
    for (let page = 1;; page++) {
      if (page > this.#maxPages) {
        throw new McpConnectionError(
          this.name,
          `Cannot list the tools of MCP server "${this.name}" as it sent more than ${this.#maxPages} pages`,
        );
      }
      let result;
      try {
        result = await this.#client.request(
          { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
          ANY_RESULT,
          options,
        );
      } catch (error) {
        if (!isSchemaError(error)) throw error;
        throw new McpConnectionError(
          this.name,
          `Cannot list the tools of MCP server "${this.name}" as its tools/list answer is malformed: ${
            describe(error).slice(0, 500)
          }`,
          { cause: error },
        );
      }
      const entries: unknown = result.tools;
      if (!Array.isArray(entries)) {
        throw new McpConnectionError(
          this.name,
          `Cannot list the tools of MCP server "${this.name}" as its tools/list answer is malformed: its tools are not a list: current value is ${
            entries === null ? "null" : typeof entries
          }`,
        );
      }
      if (tools.length + entries.length > this.#maxTools) {
        throw new McpConnectionError(
          this.name,
          `Cannot list the tools of MCP server "${this.name}" as it lists more than ${this.#maxTools} tools (the maxTools limit): current count is at least ${
            tools.length + entries.length
          }`,
        );
      }
      // One at a time: spreading a server's page into push() overflows the stack on a long one.
      const pause = slices();
      for (const listed of entries) {
        // Checking an entry reads its schemas whole: on a long page, the host's other work gets its turn.
        await pause(options.signal);
        const name = (listed as { name?: unknown } | null)?.name;
        const shown = typeof name === "string" ? name.slice(0, 200) : "";
        // The SDK's check of an entry reads every value of its schemas' properties, in one stretch: a schema over
        // the limits is left out before it.
        const unbounded = unboundedSchema(listed);
        if (unbounded !== undefined) {
          warnings.push({ tool: shown, message: `Left out "${shown}" as its spec cannot be used: ${unbounded}` });
          continue;
        }
        const parsed = specTypeSchemas.Tool["~standard"].validate(listed) as StandardSchemaV1.Result<Tool>;
        if (!parsed.issues) {
          tools.push(parsed.value);
          continue;
        }
        warnings.push({
          tool: shown,
          message: `Left out ${shown === "" ? "a tool" : `"${shown}"`} as its tools/list entry is malformed: ${
            issuesOf(parsed).slice(0, 500)
          }`,
        });
      }
      // The shortest freshness any page claims is the list's.
      const { ttlMs } = result;
      if (typeof ttlMs === "number" && ttlMs > 0) ttl = Math.min(ttl ?? ttlMs, ttlMs);
      const next = result.nextCursor;
      if (next !== undefined && typeof next !== "string") {
        throw new McpConnectionError(
          this.name,
          `Cannot list the tools of MCP server "${this.name}" as its page cursor is not a string: current value is ${typeof next}`,
        );
      }
      cursor = next;
      if (cursor === undefined) {
        this.#staleAt = ttl === undefined ? undefined : Date.now() + ttl;
        return { tools, warnings };
      }
      if (seen.has(cursor)) {
        throw new McpConnectionError(
          this.name,
          `Cannot list the tools of MCP server "${this.name}" as it repeated a page cursor: current value is ${
            JSON.stringify(cursor).slice(0, 100)
          }`,
        );
      }
      seen.add(cursor);
    }
  }

  /** The description the model is shown: the server's, cut to the limit, or one made up when it gave none. */
  #description(tool: Tool, warnings: McpToolWarning[]): string {
    const description = typeof tool.description === "string" ? tool.description.trim() : "";
    if (description === "") return `The "${tool.name}" tool of MCP server "${this.name}".`;
    const limit = this.#maxDescriptionChars;
    if (description.length <= limit) return description;
    warnings.push({
      tool: tool.name,
      message:
        `Cut the description of "${tool.name}" from ${description.length} to ${limit} characters (the maxDescriptionChars limit)`,
    });
    return description.slice(0, limit) + cutNote(description.length - limit);
  }

  /**
   * Turns listed tools into DynTools by registered name; refuses two tools
   * that get the same name, and leaves out, with a warning, a tool whose
   * spec or schema cannot be used.
   */
  async #build({ tools, warnings: listWarnings }: Listed, signal?: AbortSignal): Promise<BuiltList> {
    const built = new Map<string, Built>();
    const warnings = [...listWarnings];
    const owners = new Map<string, string>();
    const overrides = this.#options.tools;
    const pause = slices();
    for (const tool of tools) {
      // Checking a large schema takes tens of milliseconds: between tools, the host's other work gets its turn.
      await pause(signal);
      if (tool.name === "") {
        warnings.push({ tool: tool.name, message: "Left out a tool with an empty name" });
        continue;
      }
      const name = mcpToolName(this.name, tool.name);
      const owner = owners.get(name);
      if (owner !== undefined) {
        throw new McpConnectionError(
          this.name,
          `Cannot register the tools of MCP server "${this.name}" as "${owner}" and "${tool.name}" both become "${name}"`,
        );
      }
      owners.set(name, tool.name);
      // Own properties only: a tool named "constructor" must not find Object's.
      const override = overrides !== undefined && Object.hasOwn(overrides, tool.name)
        ? overrides[tool.name]
        : undefined;
      const declared = readMcpToolContract(tool._meta);
      const { effects, semantics } = mcpToolEffects(tool.annotations, {
        trusted: this.#options.trusted,
        override,
        ...(declared === undefined ? {} : { declared }),
      });
      let descriptor: ToolDescriptor;
      let dyn: McpServerTool;
      try {
        const spec = {
          name,
          ...(tool.title === undefined ? {} : { title: tool.title }),
          description: this.#description(tool, warnings),
          inputSchema: tool.inputSchema,
          ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
          effects,
          ...(semantics === undefined ? {} : { semantics }),
          timeoutMs: override?.timeoutMs ?? this.#callTimeoutMs,
        };
        descriptor = describeTool(spec);
        dyn = new McpServerTool(this, this.#callTool, descriptor, tool);
      } catch (error) {
        if (!(error instanceof InvalidSpecError)) {
          throw new McpConnectionError(
            this.name,
            `Cannot register the tool "${tool.name}" of MCP server "${this.name}": ${describe(error)}`,
            { cause: error },
          );
        }
        warnings.push({
          tool: tool.name,
          message: `Left out "${tool.name}" as its spec cannot be used: ${describe(error).slice(0, 500)}`,
        });
        continue;
      }
      built.set(name, { tool: dyn, fingerprint: JSON.stringify([descriptor, tool.annotations ?? null]) });
    }
    return { tools: built, warnings };
  }

  #unavailable(tool: McpServerTool, started: boolean): ToolFailure {
    const why = this.#lost ?? "the connection was lost";
    const uncertain = started && tool.descriptor.semantics.idempotency !== "idempotent";
    return toolFailure(
      "unavailable",
      `Cannot call "${tool.toolName}" on MCP server "${this.name}" as ${why}`,
      {
        modelText: `The tool "${tool.descriptor.name}" is unavailable: its server is not running${
          uncertain ? "; the call may have had side effects" : ""
        }.`,
        uncertain,
      },
    );
  }

  readonly #callTool: CallTool = async (tool, input, ctx) => {
    if (this.#lost !== undefined) return { type: "failed", failure: this.#unavailable(tool, false) };
    const { signal } = ctx;
    // A call stopped before it was sent is never sent.
    if (signal.aborted) return { type: "failed", failure: this.#callFailure(tool, signal, signal.reason, false) };
    if (this.#staleAt !== undefined && Date.now() >= this.#staleAt) {
      this.#staleAt = undefined;
      this.refresh().catch((error) => this.#options.onError?.(error));
    }
    const token = `salvor-${++this.#nextToken}`;
    this.#progress.set(token, ({ progress, total, message }) =>
      ctx.progress({
        ...(typeof progress === "number" ? { progress } : {}),
        ...(typeof total === "number" ? { total } : {}),
        ...(typeof message === "string" ? { message } : {}),
      }));
    const meta = { progressToken: token, ...traceMeta(ctx.extensions) };
    const base = { name: tool.toolName, arguments: input as Record<string, unknown>, _meta: meta };
    // A resumed call answers the requests its record kept, with the server's state.
    const parked = ctx.resume === undefined ? undefined : ctx.resumePayload as McpInputPayload | undefined;
    let params: Record<string, unknown> = parked === undefined ? base : {
      ...base,
      inputResponses: ctx.resume,
      ...(parked.requestState === undefined ? {} : { requestState: parked.requestState }),
    };
    try {
      for (let round = 0;; round++) {
        const answer = await this.#client.request({ method: "tools/call", params }, ANY_RESULT, {
          signal,
          timeout: NO_SDK_TIMEOUT,
          allowInputRequired: true,
        });
        if (!isInputRequiredResult(answer)) return this.#callResult(tool, answer);
        const read = this.#inputAsked(tool, answer);
        if ("type" in read) return read;
        const { asked, schema } = read;
        const handler = this.#options.onInputRequest;
        if (handler === undefined) {
          return {
            type: "suspended",
            suspension: {
              reason: inputReason(this.name, tool.toolName, asked.inputRequests),
              resumeSchema: schema.schema,
              payload: asked,
            },
          };
        }
        if (round + 1 >= MAX_INPUT_ROUNDS) {
          return this.#inputFailure(tool, `it asked for input more than ${MAX_INPUT_ROUNDS} times in one call`);
        }
        const answers = await this.#answer(tool, asked, schema, handler, signal);
        if (typeof answers === "string") return this.#inputFailure(tool, answers);
        params = {
          ...base,
          inputResponses: answers,
          ...(asked.requestState === undefined ? {} : { requestState: asked.requestState }),
        };
      }
    } catch (error) {
      return { type: "failed", failure: this.#callFailure(tool, signal, error, true) };
    } finally {
      this.#progress.delete(token);
    }
  };

  /**
   * Reads an `input_required` answer into what a record keeps and the schema its answers must meet, or the failure
   * it is: a schema that does not compile as an untrusted one is never asked with, nor parked in a record.
   */
  #inputAsked(
    tool: McpServerTool,
    answer: Record<string, unknown>,
  ): { asked: McpInputPayload; schema: CompiledSchema } | ExecutionEvent {
    const inputRequests = readInputRequests(answer.inputRequests ?? {});
    const { requestState } = answer;
    if (inputRequests === undefined || (requestState !== undefined && typeof requestState !== "string")) {
      return this.#inputFailure(tool, "its input_required answer is malformed");
    }
    let compiled: CompiledSchema;
    try {
      compiled = untrustedAnswers(inputRequests, `input requests of "${tool.toolName}"`);
    } catch (error) {
      if (!(error instanceof InvalidSpecError)) throw error;
      return this.#inputFailure(tool, `its input requests cannot be used: ${describe(error).slice(0, 500)}`);
    }
    return {
      asked: {
        server: this.name,
        tool: tool.toolName,
        inputRequests,
        ...(requestState === undefined ? {} : { requestState }),
      },
      schema: compiled,
    };
  }

  /** Asks the live handler for every request of a round; a string says why the answers cannot be used. */
  async #answer(
    tool: McpServerTool,
    asked: McpInputPayload,
    schema: CompiledSchema,
    handler: NonNullable<McpConnectionOptions["onInputRequest"]>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown> | string> {
    const answers: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(asked.inputRequests)) {
      answers[key] = await handler(request, { server: this.name, tool: tool.toolName, signal });
    }
    const verdict = schema.validate(answers);
    if (verdict.ok) return answers;
    const first = verdict.diagnostics[0];
    return `the host's answer does not meet the server's request: ${first.path || "(value)"}: ${first.message}`;
  }

  /**
   * What a tool error's `_meta` says of its failure, as `toolFailure` options: a trusted Salvor server's word is
   * taken whole (its kind among them); anyone else's only where it asks for less, that the call may have had side
   * effects or is not to be tried again (as a kind no attempt fixes says: a tool that ran but answered malformed),
   * since a hostile server gains nothing by saying so. An untrusted server's tool error is always a "handler" one.
   */
  #declaredFailure(meta: unknown): { kind?: FailureKind; uncertain?: boolean; retryable?: boolean; code?: string } {
    const declared = readMcpFailureMeta(meta);
    if (declared === undefined) return {};
    if (this.#options.trusted !== true) {
      return {
        ...(declared.uncertain ? { uncertain: true } : {}),
        ...(declared.retryable === false || !mayRetryKind(declared.kind) ? { retryable: false } : {}),
      };
    }
    return {
      kind: declared.kind,
      uncertain: declared.uncertain,
      ...(declared.retryable === undefined ? {} : { retryable: declared.retryable }),
      ...(declared.code === undefined ? {} : { code: declared.code }),
    };
  }

  #inputFailure(tool: McpServerTool, why: string): ExecutionEvent {
    return {
      type: "failed",
      failure: toolFailure("handler", `MCP tool "${tool.toolName}" on server "${this.name}" failed as ${why}`, {
        modelText: `The tool "${tool.descriptor.name}" could not get the input it asked for.`,
        uncertain: tool.descriptor.semantics.idempotency !== "idempotent",
      }),
    };
  }

  /**
   * Answers a 2025-era server's `elicitation/create`: through the live handler, else declined. A server asks for
   * the calls it runs: with none in flight, or with as many of its requests being answered as calls in flight, it
   * is declined unasked, so that it cannot put any number of prompts before the host.
   */
  async #elicit(request: { method: string; params?: Record<string, unknown> }, signal: AbortSignal) {
    const handler = this.#options.onInputRequest;
    if (handler === undefined || this.#eliciting >= this.#progress.size) return { action: "decline" as const };
    const asked: McpInputRequest = { method: request.method, ...(request.params ? { params: request.params } : {}) };
    let compiled: CompiledSchema;
    try {
      compiled = untrustedAnswers({ answer: asked }, "elicitation/create request");
    } catch (error) {
      if (!(error instanceof InvalidSpecError)) throw error;
      throw new ProtocolError(-32602, describe(error).slice(0, 500));
    }
    let answer: unknown;
    this.#eliciting++;
    try {
      answer = await handler(asked, { server: this.name, signal });
    } finally {
      this.#eliciting--;
    }
    const verdict = compiled.validate({ answer });
    if (!verdict.ok) {
      const first = verdict.diagnostics[0];
      throw new ProtocolError(-32602, `The host's answer does not meet the request: ${first.path}: ${first.message}`);
    }
    return answer as { action: "accept" | "decline" | "cancel"; content?: Record<string, string | number | boolean> };
  }

  /** Turns a complete `tools/call` answer into the call's terminal. */
  #callResult(tool: McpServerTool, answer: Record<string, unknown>): ExecutionEvent {
    if (isRecord(answer.task) && answer.content === undefined) {
      return { type: "failed", failure: this.#taskRefused(tool) };
    }
    // A 2026-07-28 result was checked against the protocol's schema as the SDK decoded it; a 2025 one is checked here.
    const checked = this.era === "modern"
      ? { value: answer as CallToolResult }
      : specTypeSchemas.CallToolResult["~standard"].validate(answer) as StandardSchemaV1.Result<CallToolResult>;
    if (checked.issues) {
      return {
        type: "failed",
        failure: toolFailure(
          "invalid_output",
          `MCP server "${this.name}" sent a malformed result for "${tool.toolName}"`,
          {
            modelText: `The tool "${tool.descriptor.name}" returned a malformed result; it may have had side effects.`,
            diagnostics: [{ path: "", keyword: "protocol", message: issuesOf(checked).slice(0, 500) }],
          },
        ),
      };
    }
    const result = checked.value;
    if (result.isError) {
      const text = errorText(result.content, this.#budget.chars);
      const { kind = "handler", ...declared } = this.#declaredFailure(result._meta);
      return {
        type: "failed",
        failure: toolFailure(kind, `MCP tool "${tool.toolName}" on server "${this.name}" failed: ${text}`, {
          modelText: text,
          ...declared,
        }),
      };
    }
    // A result with no content is shown to the model as its output's JSON: held to the budget like a text.
    const shown: ContentBlock[] = result.content.length === 0 && result.structuredContent !== undefined
      ? [{ type: "text", text: JSON.stringify(result.structuredContent) }]
      : result.content;
    const { parts, cut } = contentParts(shown, this.#budget);
    return {
      type: "output",
      result: {
        content: parts,
        ...(result.structuredContent === undefined ? {} : { output: result.structuredContent }),
        details: {
          server: this.name,
          tool: tool.toolName,
          // The whole result, for the host: the model's parts may be cut.
          content: result.content,
          ...(cut ? { cut: true } : {}),
          ...(result._meta ? { meta: result._meta } : {}),
        },
      },
    };
  }

  /**
   * A task handle instead of a result: the SDK line has no client for the
   * tasks extension, so the call cannot be followed to its end.
   */
  #taskRefused(tool: McpServerTool): ToolFailure {
    return toolFailure(
      "unavailable",
      `Cannot follow the call to "${tool.toolName}" on MCP server "${this.name}" as it answered with a task handle, which this client does not support`,
      {
        modelText:
          `The tool "${tool.descriptor.name}" started a background task this host cannot follow; its result is not available.`,
        uncertain: tool.descriptor.semantics.idempotency !== "idempotent",
      },
    );
  }

  /**
   * Hands a progress notification with one of our tokens straight to its
   * call, as the transport delivers it. Through the SDK, a progress sent
   * just before the result could be lost: the result, read in the same
   * chunk, removes the handler before the notification's turn comes.
   */
  #tapProgress(message: JSONRPCMessage): boolean {
    if (!("method" in message) || message.method !== "notifications/progress" || "id" in message) return false;
    const params = message.params as Record<string, unknown> | undefined;
    const report = typeof params?.progressToken === "string" ? this.#progress.get(params.progressToken) : undefined;
    if (report === undefined) return false;
    report(params!);
    return true;
  }

  #callFailure(tool: McpServerTool, signal: AbortSignal, error: unknown, sent: boolean): ToolFailure {
    if (signal.aborted) {
      // The SDK reports an abort with the timeout's code; the signal's reason tells them apart.
      const timedOut = (signal.reason as { name?: string } | undefined)?.name === "TimeoutError";
      return toolFailure(
        timedOut ? "timeout" : "cancelled",
        `The call to "${tool.toolName}" on "${this.name}" stopped${sent ? "" : " before it was sent"}`,
        {
          uncertain: sent && tool.descriptor.semantics.idempotency !== "idempotent",
        },
      );
    }
    if (this.#lost !== undefined || (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed)) {
      this.#lost ??= this.#exitPhrase();
      return this.#unavailable(tool, true);
    }
    if (error instanceof SdkError && error.code === SdkErrorCode.UnsupportedResultType) {
      const { resultType } = (error.data ?? {}) as { resultType?: unknown };
      if (resultType === "task") return this.#taskRefused(tool);
    }
    // An answer the host could not read (past a bound, or past maxMessageBytes) would be as long again.
    if (error instanceof ProtocolError && isUnreadAnswer(error.data)) {
      return toolFailure("invalid_output", `MCP server "${this.name}" answered "${tool.toolName}": ${error.message}`, {
        modelText:
          `The tool "${tool.descriptor.name}" returned a result this host cannot read; it may have had side effects.`,
        diagnostics: [{ path: "", keyword: "protocol", message: error.message.slice(0, 500) }],
      });
    }
    if (error instanceof ProtocolError) {
      return toolFailure(
        "handler",
        `MCP tool "${tool.toolName}" on server "${this.name}" failed: ${error.message}`,
        { code: String(error.code), modelText: error.message },
      );
    }
    if (isSchemaError(error)) {
      return toolFailure(
        "invalid_output",
        `MCP server "${this.name}" sent a malformed result for "${tool.toolName}"`,
        {
          modelText: `The tool "${tool.descriptor.name}" returned a malformed result; it may have had side effects.`,
          diagnostics: [{ path: "", keyword: "protocol", message: describe(error).slice(0, 500) }],
        },
      );
    }
    return toolFailure(
      "unavailable",
      `Cannot call "${tool.toolName}" on MCP server "${this.name}": ${describe(error)}`,
      {
        modelText: `The tool "${tool.descriptor.name}" could not reach its server.`,
        uncertain: tool.descriptor.semantics.idempotency !== "idempotent",
      },
    );
  }

  #exitPhrase(): string {
    const exit = this.#process?.exitProblem();
    return exit ? `the server ${exit}` : "the connection to the server closed";
  }

  static {
    openConnection = (connection, timeoutMs) => connection.#open(timeoutMs);
  }

  /** Connects, lists the tools and starts following changes. */
  async #open(timeoutMs: number): Promise<void> {
    const client = this.#client;
    client.onclose = () => {
      this.#lost ??= this.#exitPhrase();
    };
    // Set on the transport too, so that what it reports during the era probe,
    // before the SDK chains its own handler, is not lost; reported once.
    const reported = new WeakSet<Error>();
    this.#transport.onerror = (error) => {
      reported.add(error);
      this.#options.onError?.(error);
    };
    client.onerror = (error) => {
      if (!reported.has(error)) this.#options.onError?.(error);
    };
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException("The connection timed out", "TimeoutError")),
      timeoutMs,
    );
    let phase: "initialize" | "list" = "initialize";
    const { prior } = this.#options;
    // A server that never answers the probe is a 2025 one on stdio: half the time to connect is left for initialize.
    client.setVersionNegotiation({ mode: "auto", probe: { timeoutMs: Math.max(1, Math.floor(timeoutMs / 2)) } });
    try {
      await client.connect(this.#transport, {
        signal: deadline.signal,
        timeout: NO_SDK_TIMEOUT,
        // The SDK checks a modern verdict's discover answer before adopting it.
        ...(prior === undefined ? {} : { prior: prior as PriorDiscovery }),
      });
      this.#tapTransport();
      phase = "list";
      // A server that does not declare tools has none to list.
      if (client.getServerCapabilities()?.tools) {
        const listed = await this.#build(
          await this.#listAll({ signal: deadline.signal, timeout: NO_SDK_TIMEOUT }),
          deadline.signal,
        );
        this.#tools = listed.tools;
        this.#warnings = listed.warnings;
      }
      this.#connecting = false;
      if (this.#refreshAgain) this.#listChanged();
    } catch (error) {
      // Said before closing: once closed, every server has "exited", which would hide what went wrong.
      const failure = this.#connectError(error, phase, deadline.signal.aborted, timeoutMs);
      await this.close();
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Puts #tapProgress in front of the SDK's own handler of what the transport delivers. */
  #tapTransport(): void {
    const transport = this.#transport;
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (!this.#tapProgress(message)) deliver?.(message, extra);
    };
  }

  #connectError(
    error: unknown,
    phase: "initialize" | "list",
    timedOut: boolean,
    timeoutMs: number,
  ): McpConnectionError {
    if (error instanceof McpConnectionError) return error;
    const stderr = this.stderr;
    const start = this.#process?.startProblem();
    const exit = this.#process?.exitProblem();
    const tail = stderr.trim() === "" ? "" : `; its stderr ends with: ${stderr.trim().slice(-500)}`;
    const what = phase === "list" ? "listing its tools" : "answering initialize";
    const reason = start
      ? start
      : timedOut
      ? `it did not finish ${what} within ${timeoutMs} ms`
      : exit
      ? `it ${exit} before ${what}`
      : `${what} failed: ${describe(error)}`;
    return new McpConnectionError(this.name, `Cannot connect to MCP server "${this.name}" as ${reason}${tail}`, {
      stderr,
      cause: error,
    });
  }

  /**
   * Closes the connection: later calls fail at once as `unavailable`. A
   * spawned server gets its stdin closed and, when it does not exit within
   * a moment, is signalled with its whole process group, so nothing it
   * started is left behind. Safe to call more than once.
   *
   * @returns When the server is gone.
   *
   * @example Calls after close fail fast
   * ```ts
   * import { ToolSet } from "@salvor/tools";
   * import { connectMcpServer } from "@salvor/tools/mcp";
   * import { McpServer } from "@modelcontextprotocol/server";
   * import { InMemoryTransport } from "@modelcontextprotocol/client";
   * import assert from "node:assert/strict";
   *
   * const server = new McpServer({ name: "demo", version: "1.0.0" });
   * server.registerTool("ping", { description: "Answers pong." }, () => ({ content: [] }));
   * const [mine, theirs] = InMemoryTransport.createLinkedPair();
   * await server.connect(theirs);
   * const demo = await connectMcpServer({ name: "demo", transport: mine });
   * const tools = demo.register(new ToolSet());
   * await demo.close();
   * const late = await tools.call({ id: "1", name: "demo__ping", arguments: {} });
   * assert.equal(late.type === "failed" && late.failure.kind, "unavailable");
   * ```
   */
  close(): Promise<void> {
    this.#lost ??= "the connection was closed";
    this.#ending.abort();
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  async #shutDown(): Promise<void> {
    // An HTTP session is ended on the server too, but a server that does not
    // answer must not hold up the close.
    const session = this.#transport as { sessionId?: string; terminateSession?: () => Promise<void> };
    if (session.sessionId !== undefined && typeof session.terminateSession === "function") {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        session.terminateSession().catch(() => {}),
        new Promise((resolve) => timer = setTimeout(resolve, SESSION_END_MS)),
      ]).finally(() => clearTimeout(timer));
    }
    await this.#client.close().catch((error: unknown) =>
      this.#options.onError?.(error instanceof Error ? error : new Error(String(error)))
    );
  }

  /** Closes the connection, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * An MCP transport the host made: any of the SDK's `Transport`s (in-memory,
 * WebSocket, a custom one). Only its shape is named here, so this module's
 * public types do not depend on the SDK's.
 */
export interface McpTransport {
  /** Starts the transport; the connection calls it once. */
  start(): Promise<void>;
  /** Sends one JSON-RPC message. */
  send(...args: never[]): Promise<void>;
  /** Closes the transport. */
  close(): Promise<void>;
}

/** Options for connecting over a transport the host made. */
export interface McpTransportOptions extends McpConnectionOptions {
  /** The transport to the server, not yet started. */
  readonly transport: McpTransport;
}

/**
 * Connects over a transport, lists every tool and returns the connection.
 * Internal: the entrypoints' `connectMcpServer` picks the transport.
 */
export async function openMcpConnection(
  transport: Transport,
  options: McpConnectionOptions,
  process?: ServerProcessInfo,
): Promise<McpServerConnection> {
  if (typeof options?.name !== "string" || options.name === "") {
    throw new TypeError(
      `Cannot connect to an MCP server as its name must be a non-empty string: current value is ${
        JSON.stringify(options?.name)
      }`,
    );
  }
  const timeoutMs = wholeOption(options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS, "connectTimeoutMs", options.name);
  // The SDK validates synchronously through the core's compiler, so the fallback validator, which loads apart from
  // the core, is loaded before a server's schema can need it.
  await FALLBACK.load();
  const connection = new McpServerConnection(CONNECTION_TOKEN, transport, options, process);
  await openConnection(connection, timeoutMs);
  return connection;
}
