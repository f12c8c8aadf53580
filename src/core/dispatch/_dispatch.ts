// The dispatch engine behind ToolSet: it admits a call (or a parked call and
// its answer) against the set's tools, then takes it through its options,
// input validation, idempotency key and approval to the tool, and checks what
// the tool sends back, so that every call ends in exactly one terminal event.
// Nothing here throws to the caller: every problem is a failed terminal.

import type { Diagnostic } from "../common/diagnostics.ts";
import { type DynTool, INVOCATION_TOKEN, type ToolContext, ValidatedInvocation } from "../contract/dyn.ts";
import type { ParseResult } from "../schema/schema.ts";
import type { ExecutionEvent, ProgressEvent, TerminalEvent, ToolEvent, ToolResult } from "../contract/events.ts";
import { checkJsonValue, copyJsonValue, DEFAULT_LIMITS, type JsonLimits } from "../common/limits.ts";
import { type CompiledSchema, compileSchemaApart, type SchemaValidation } from "../schema/schema.ts";
import { SchemaBudgetError } from "../schema/validator/budget.ts";
import type { PatternEngine } from "../schema/validator/patterns.ts";
import { outsidePatterns } from "../schema/_outside_patterns.ts";
import type { ToolDescriptor } from "../contract/spec.ts";
import { APPROVAL_RESUME_SCHEMA, type SuspendedCall } from "../contract/suspend.ts";
import type { ApprovalAnswer, ApprovalDecision, ApprovalGate, ArgumentsProjection, CallOptions } from "./tool_call.ts";
import { readArguments } from "./_arguments.ts";
import { readFailure, readSuspension } from "./_reported_event.ts";
import { OUTPUT_AS_TEXT, outputAsText } from "../contract/_output_text.ts";
import { CallControl, STOPPED } from "./_call_control.ts";
import { readCallOptions } from "./_call_options.ts";
import { toolFailure } from "../contract/failure.ts";
import { type NonceStore, nonceStoreOf, RecordSeal, sealHeld, type SealOptions, type SealStamp } from "../seal/seal.ts";
import { EventQueue } from "./_event_queue.ts";
import { type DirectRun, directRunOf } from "../define/_direct.ts";
import {
  approvalGateFailed,
  contract,
  costlySchema,
  deniedByPerson,
  failed,
  invalidInput,
  invalidOptions,
  invalidOutput,
  malformedCall,
  noApprovalGate,
  notFound,
  notFoundToResume,
  one,
  refusedByPolicy,
  refusedResume,
  stopped,
  unexpected,
} from "./_dispatch_failures.ts";
import { isRecord } from "../common/_is_record.ts";
import { readRecord, suspendedRecord } from "./_suspended_record.ts";
import { readVerdict } from "./_verdict.ts";
import { CallContext } from "./_tool_context.ts";
import { describeThrown, thrownField } from "../common/_describe_thrown.ts";
import { showValue } from "../common/_show_value.ts";
import type { CallObserver } from "./observer.ts";
import { Watch, type WatchPlace } from "./_watch.ts";

/** A registered tool, with what dispatch needs resolved once at registration. */
export interface Entry {
  readonly tool: DynTool;
  readonly descriptor: ToolDescriptor;
  readonly parseInput: (value: unknown) => ParseResult | Promise<ParseResult>;
  readonly parseOutput:
    | ((value: unknown) => ParseResult | Promise<ParseResult>)
    | undefined;
  /** The compiled schema behind `parseInput` when that is a plain schema check: dispatch validates with it directly. */
  readonly inputCheck: CompiledSchema | undefined;
  /** As `inputCheck`, for `parseOutput`. */
  readonly outputCheck: CompiledSchema | undefined;
  /** The tool's own check of a resume answer, run after the record's JSON Schema. */
  readonly parseResume: ((value: unknown) => ParseResult | Promise<ParseResult>) | undefined;
  readonly needsPolicy: boolean;
}

/** An admitted call: everything its dispatch needs from here on. */
export interface Dispatch {
  readonly entry: Entry;
  readonly callId: string;
  readonly args: Record<string, unknown>;
  readonly options: CallOptions;
  /** Set when resuming: the human's answer and who parked the call. */
  readonly resume?: {
    readonly answer: unknown;
    readonly origin: SuspendedCall["origin"];
    /** The record's payload: what the tool kept for its own resume (an MCP server's request state). */
    readonly payload?: unknown;
    /** For a sealed record: uses up its nonce; resolves to why the record is refused, or `undefined` once spent. */
    readonly burn?: () => Promise<string | undefined>;
  };
  readonly idempotencyKey?: string;
}

/** Each content type's string fields: those it must have, and those it may. */
const CONTENT_FIELDS: Readonly<
  Record<string, { readonly required: readonly string[]; readonly optional: readonly string[] }>
> = {
  text: { required: ["text"], optional: [] },
  image: { required: ["data", "mimeType"], optional: [] },
  audio: { required: ["data", "mimeType"], optional: [] },
  resource_link: { required: ["uri"], optional: ["name", "mimeType", "description"] },
  resource: { required: ["uri"], optional: ["mimeType", "text", "blob"] },
};

/**
 * A private copy of a result's content parts, each of a known type with its fields strings, or what is wrong with
 * them. Each part is copied as it is checked: a handler that kept them cannot change what the caller was given.
 */
function checkedContent(content: readonly unknown[]): unknown[] | string {
  const copy: unknown[] = [];
  for (let i = 0; i < content.length; i++) {
    const part = content[i];
    const fields = isRecord(part) && Object.hasOwn(CONTENT_FIELDS, part.type as string)
      ? CONTENT_FIELDS[part.type as string]
      : undefined;
    if (fields === undefined) return "the result holds a content part of an unknown type";
    const own = { ...(part as Record<string, unknown>) };
    const wrong = fields.required.find((field) => typeof own[field] !== "string") ??
      fields.optional.find((field) => own[field] !== undefined && typeof own[field] !== "string");
    if (wrong !== undefined) return `the result's ${own.type} content part at ${i} has no string ${wrong}`;
    copy.push(own);
  }
  return copy;
}

/** Reads the idempotency key at a dotted path of the arguments. */
function keyAt(
  args: Record<string, unknown>,
  path: string,
): string | Diagnostic {
  let node: unknown = args;
  for (const segment of path.split(".")) {
    node = isRecord(node) && Object.hasOwn(node, segment) ? node[segment] : undefined;
  }
  if (typeof node === "string" && node !== "") return node;
  if (typeof node === "number") return String(node);
  return {
    path: `/${path.split(".").join("/")}`,
    keyword: "required",
    message: `Missing the idempotency key "${path}": it must be a non-empty string or a number.`,
  };
}

/** Copies a progress report's known fields, or says why it is malformed. */
function readProgress(event: unknown): ProgressEvent | string {
  if (!isRecord(event)) {
    return `it must be an object: current value is ${event === null ? "null" : typeof event}`;
  }
  const progress: { -readonly [K in keyof ProgressEvent]: ProgressEvent[K] } = {
    type: "progress",
  };
  for (const field of ["progress", "total"] as const) {
    const value = event[field];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value)) {
      return `its ${field} must be a finite number: current value is ${
        typeof value === "number" ? value : typeof value
      }`;
    }
    progress[field] = value;
  }
  if (event.message !== undefined) {
    if (typeof event.message !== "string") {
      return `its message must be a string: current value is ${typeof event.message}`;
    }
    progress.message = event.message.slice(0, 1000);
  }
  return progress;
}

/**
 * Calls a tool's parser. A parser that throws, or answers with something
 * that is not a parse result, breaks the contract: that is reported, not thrown.
 */
function parseWith(
  parse: (value: unknown) => ParseResult | Promise<ParseResult>,
  value: unknown,
): ParseOutcome | Promise<ParseOutcome> {
  let parsed: unknown;
  try {
    parsed = parse(value);
  } catch (error) {
    return threw(error);
  }
  // A synchronous parser answers without a promise turn.
  return isRecord(parsed) && typeof parsed.then === "function"
    ? Promise.resolve(parsed).then(parseOutcome, threw)
    : parseOutcome(parsed);
}

/**
 * Validates with a parser's compiled schema directly (see `schemaOfParser`):
 * the outcome the parser would give, without its call and shape checks. A
 * schema whose validator is still loading is awaited first, as its parser does.
 */
function validated(schema: CompiledSchema, value: unknown): ParseOutcome | Promise<ParseOutcome> {
  const loading = schema.loading;
  if (loading !== undefined) return loading.then(() => validated(schema, value), threw);
  let outcome: SchemaValidation;
  try {
    outcome = schema.validate(value);
  } catch (error) {
    return threw(error);
  }
  return outcome.ok ? { ok: true, value } : { ok: false, diagnostics: outcome.diagnostics, omitted: outcome.omitted };
}

type ParseOutcome = ParseResult | { readonly broken: string } | { readonly costly: SchemaBudgetError };

function parseOutcome(parsed: unknown): ParseOutcome {
  if (isRecord(parsed) && (parsed.ok === true || (parsed.ok === false && Array.isArray(parsed.diagnostics)))) {
    return parsed as ParseResult;
  }
  return { broken: "answered with something that is not a parse result" };
}

function threw(error: unknown): ParseOutcome {
  // A schema over its step budget is the schema's fault, not a broken parser's.
  if (error instanceof SchemaBudgetError) return { costly: error };
  return { broken: `threw: ${describeThrown(error)}` };
}

function outputEvent(result: Record<string, unknown>, output: unknown): TerminalEvent {
  // Assigned over a copy rather than spread from conditional literals: the same
  // fields in the same order, without building a literal for each.
  const checked: { -readonly [K in keyof ToolResult]: ToolResult[K] } = { ...(result as unknown as ToolResult) };
  if (result.content === OUTPUT_AS_TEXT) checked.content = outputAsText(output);
  if (output !== undefined) checked.output = output;
  return { type: "output", result: checked };
}

function parsedOutput(name: string, result: Record<string, unknown>, parsed: ParseOutcome): TerminalEvent {
  if ("broken" in parsed) return failed(contract(name, `parseOutput() ${parsed.broken}`));
  if ("costly" in parsed) return failed(costlySchema(name, "output", parsed.costly));
  if (!parsed.ok) return failed(invalidOutput(name, parsed));
  return outputEvent(result, parsed.value);
}

function streamThrew(name: string, error: unknown): TerminalEvent {
  return failed(contract(name, `the stream threw: ${describeThrown(error)}`));
}

const NO_EXTENSIONS: Readonly<Record<string, unknown>> = Object.freeze({});

/** How long a stream may take to end after its terminal event before it is closed. */
const END_GRACE_MS = 100;
const GRACE_OVER: unique symbol = Symbol("grace over");

function withinEndGrace<T>(step: Promise<T>): Promise<T | typeof GRACE_OVER> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const over = new Promise<typeof GRACE_OVER>((resolve) => timer = setTimeout(() => resolve(GRACE_OVER), END_GRACE_MS));
  return Promise.race([step, over]).finally(() => clearTimeout(timer));
}

/** A projection's name for a message; a host's projection may hold anything there. */
function nameOf(projection: ArgumentsProjection): string {
  const name = thrownField(projection, "name");
  return typeof name === "string" ? name.slice(0, 100) : "unnamed";
}

/** Runs an admission step; a throw in it (a bug) is a failed terminal. */
function admitSafely(admit: () => Admitted | Promise<Admitted>): Admitted | Promise<Admitted> {
  try {
    const admitted = admit();
    return admitted instanceof Promise ? admitted.catch(unexpected) : admitted;
  } catch (error) {
    return unexpected(error);
  }
}

/** A call admitted to its dispatch, or the terminal that refused it. */
export type Admitted = Dispatch | TerminalEvent;

/** The nonce store of the sealer, which only checks: dispatch uses up nonces itself, last. */
const CHECK_ONLY: NonceStore = { consume: () => true };

/** Whether a limit is a number, not below 0 (`Infinity` for none). */
function isBound(limit: unknown): limit is number {
  return typeof limit === "number" && limit >= 0;
}

/**
 * A set's limits as given, each field read once into a frozen copy: what is checked is what the set keeps, and
 * neither the host nor a gate it is handed to can change it. `undefined` when they are not limits.
 */
function limitsOf(limits: unknown): JsonLimits | undefined {
  if (!isRecord(limits)) return undefined;
  const { maxBytes, maxDepth, maxContainers } = limits;
  if (!isBound(maxBytes) || !isBound(maxDepth) || !(maxContainers === undefined || isBound(maxContainers))) {
    return undefined;
  }
  return Object.freeze({ maxBytes, maxDepth, ...(maxContainers === undefined ? {} : { maxContainers }) });
}

/** A set's seal: the sealer that checks records, the store their nonces are used up in, and the seal's clock. */
interface SetSeal {
  readonly sealer: RecordSeal;
  readonly nonces: NonceStore;
  readonly now: () => number;
}

/**
 * Uses up a sealed record's nonce, the last check of a resume, then reads the seal's clock again: a store may forget a
 * nonce as it expires, so one taken again by a record that expired as it was checked does not count.
 *
 * @returns Why the record is refused, or `undefined` once it is spent.
 */
async function spendNonce(seal: SetSeal, { nonce, exp }: SealStamp): Promise<string | undefined> {
  try {
    if (await seal.nonces.consume(nonce, exp) !== true) {
      return "its seal is refused (replayed): the record was resumed before";
    }
  } catch (error) {
    return `the nonce store failed: ${describeThrown(error)}`;
  }
  return seal.now() < exp ? undefined : "its seal is refused (expired): it expired as the record was checked";
}

/**
 * The one approval answer, `{ approved: boolean, reason?: string }`, compiled on the first resume that needs it
 * (compiling it as the core loads would start loading the compiled validator then).
 */
let approvalSchema: CompiledSchema | undefined;

const SUBJECT_WITHOUT_SEAL =
  "subject needs a ToolSet with a seal: current value is a subject for a set whose records nothing binds to it";

const SPENT: Diagnostic = {
  path: "/seal/nonce",
  keyword: "once",
  message: "A sealed record resumes once.",
};

const SEALED_RECORD: Diagnostic = {
  path: "/seal",
  keyword: "seal",
  message: "The record is sealed; resume it with a ToolSet that holds its key.",
};

/** Where the progress of a call nobody listens to goes: one function for all, not a closure each. */
const IGNORE_PROGRESS = (_event: ProgressEvent): void => {};

/** Waits for a call's terminal, then releases its control and tells the observer. Never rejects. */
async function released(
  ran: Promise<TerminalEvent>,
  control: CallControl | undefined,
  watch: Watch | undefined,
): Promise<TerminalEvent> {
  let terminal: TerminalEvent;
  try {
    terminal = await ran;
  } catch (error) {
    terminal = unexpected(error);
  } finally {
    control?.dispose();
  }
  watch?.end(terminal);
  return terminal;
}

/** An admitted call with the extensions its observer added, under the host's own. */
function observed(job: Dispatch, watch: Watch): Dispatch {
  const added = watch.extensions;
  if (added === undefined) return job;
  const own = job.options.extensions;
  const extensions = own === undefined ? added : Object.freeze({ ...added, ...own });
  return { ...job, options: { ...job.options, extensions } };
}

const DISPATCHERS = new WeakMap<object, Dispatcher>();

/** Ties a set to its dispatcher, so the batch runner reaches the set's seal without a public door. */
export function bindDispatcher(set: object, dispatcher: Dispatcher): void {
  DISPATCHERS.set(set, dispatcher);
}

/** The dispatcher of a set made by `ToolSet`. */
export function dispatcherOf(set: object): Dispatcher | undefined {
  return DISPATCHERS.get(set);
}

/**
 * Dispatches calls to the tools of one set. It reads the set's entries and
 * never changes them: registering stays the set's own business.
 */
export class Dispatcher {
  readonly #entries: ReadonlyMap<string, Entry>;
  readonly #approve: ApprovalGate | undefined;
  readonly #limits: JsonLimits;
  /** What every gate the set asks is told beside the call, made once. */
  readonly #asked: { readonly limits: JsonLimits };
  readonly #seal: SetSeal | undefined;
  readonly #observer: CallObserver | undefined;

  /**
   * @param entries The set's tools by name, read at each call.
   * @param settings The set's default approval gate, its limits on values, its seal and its observer.
   * @throws {TypeError} When the seal's options are refused (see `RecordSeal`), or the gate, the limits or the observer
   * is not of its kind.
   */
  constructor(
    entries: ReadonlyMap<string, Entry>,
    settings: {
      readonly approve?: ApprovalGate;
      readonly limits?: JsonLimits;
      readonly seal?: SealOptions;
      readonly observer?: CallObserver;
    },
  ) {
    // A gate of the wrong kind would fail every call it should have parked, as policy_required, long after.
    if (settings.approve !== undefined && typeof settings.approve !== "function") {
      throw new TypeError(
        `Cannot create the tool set as approve must be a function: current value is ${showValue(settings.approve)}`,
      );
    }
    const given = settings.limits;
    const limits = given === undefined ? DEFAULT_LIMITS : limitsOf(given);
    if (limits === undefined) {
      throw new TypeError(
        `Cannot create the tool set as limits must hold a maxBytes and a maxDepth, numbers not below 0: current value is ${
          showValue(given)
        }`,
      );
    }
    if (settings.observer !== undefined && !isRecord(settings.observer)) {
      throw new TypeError(
        `Cannot create the tool set as observer must be an object: current value is ${showValue(settings.observer)}`,
      );
    }
    this.#entries = entries;
    this.#approve = settings.approve;
    this.#limits = limits;
    this.#asked = Object.freeze({ limits: this.#limits });
    this.#observer = settings.observer;
    const seal = settings.seal;
    if (seal !== undefined) {
      // The sealer only checks; dispatch uses up the nonce itself, once every other check has passed, in the store the
      // options name (checked as the sealer checks it) or one on the seal's clock.
      const sealer = new RecordSeal({ ...seal, nonces: CHECK_ONLY });
      const now = seal.now ?? Date.now;
      this.#seal = { sealer, nonces: nonceStoreOf(seal.nonces, now), now };
    }
  }

  /** The set's limits on values, a frozen copy checked as the set was made. */
  get limits(): JsonLimits {
    return this.#limits;
  }

  /** Whether the set has an observer: without one, nothing is made to observe a call. */
  get observed(): boolean {
    return this.#observer !== undefined;
  }

  /**
   * Starts observing a call (a model's call, or a parked call's record when
   * resuming) when the set has an observer; without one, costs nothing.
   */
  watch(source: unknown, place: WatchPlace): Watch | undefined {
    return this.#observer === undefined
      ? undefined
      : new Watch(this.#observer, this.#entries, source, place, this.#limits);
  }

  /** A batch record sealed as a whole, read into a copy as it is sealed; `undefined` when the set has no seal. */
  sealBatch<T extends object>(record: T, subject: string | undefined): Promise<T> | undefined {
    return this.#seal ? sealHeld(this.#seal.sealer, record, subject) : undefined;
  }

  /**
   * Opens a stored batch record. With a seal, the seal is verified before
   * anything else is read; `spend` then uses up its nonce, which the caller
   * does once the record has passed its own checks too, so a record refused
   * for its shape stays usable: a batch is resumed once, and a resume that
   * leaves calls parked makes a new record. Without a seal, a sealed record
   * is refused, as for a parked call.
   */
  async openBatch(
    stored: unknown,
    subject: string | undefined,
  ): Promise<
    | { readonly ok: true; readonly record: unknown; spend(): Promise<string | undefined> }
    | { readonly ok: false; readonly message: string }
  > {
    const seal = this.#seal;
    if (!seal) {
      if (subject !== undefined) return { ok: false, message: SUBJECT_WITHOUT_SEAL };
      if (thrownField(stored, "seal") !== undefined) {
        return { ok: false, message: "the record is sealed and this set holds no seal to verify it" };
      }
      return { ok: true, record: stored, spend: () => Promise.resolve(undefined) };
    }
    const verified = await seal.sealer.verify(stored, subject === undefined ? {} : { subject });
    if (!verified.ok) return { ok: false, message: `its seal is refused (${verified.reason}): ${verified.message}` };
    return { ok: true, record: verified.record, spend: () => spendNonce(seal, verified.stamp) };
  }

  /** The terminal of a parked call: its record, sealed when the set has a seal. */
  #parked(record: SuspendedCall, subject: string | undefined): TerminalEvent | Promise<TerminalEvent> {
    if (!this.#seal) return { type: "suspended", suspended: record };
    return sealHeld(this.#seal.sealer, record, subject).then(
      (sealed): TerminalEvent => ({ type: "suspended", suspended: sealed }),
      (error: unknown) =>
        failed(toolFailure("contract", `Cannot park the call as sealing its record failed: ${describeThrown(error)}`)),
    );
  }

  /** Checks a call up to its dispatch: its shape, its tool, its options, its arguments. */
  admit(call: unknown, options: unknown): Dispatch | TerminalEvent {
    let id: unknown, name: unknown, raw: unknown;
    try {
      // Each field is read once: a getter may answer differently the next time.
      if (isRecord(call)) ({ id, name, arguments: raw } = call);
    } catch {
      return failed(malformedCall());
    }
    if (typeof id !== "string" || typeof name !== "string") {
      return failed(malformedCall());
    }
    const entry = this.#entries.get(name);
    if (!entry) {
      return failed(notFound(name));
    }
    const read = readCallOptions(options, this.#limits);
    if (typeof read === "string") return failed(invalidOptions(name, read));
    if (read.subject !== undefined && !this.#seal) return failed(invalidOptions(name, SUBJECT_WITHOUT_SEAL));
    const argued = readArguments(raw, this.#limits);
    if (!argued.ok) {
      return failed(invalidInput(name, one(argued.diagnostic)));
    }
    let args = argued.value;
    const projection = read.projection;
    if (projection !== undefined) {
      try {
        args = projection.restore(entry.descriptor.inputSchema, args);
      } catch (error) {
        return failed(
          contract(
            name,
            `the ${nameOf(projection)} projection could not restore the arguments: ${describeThrown(error)}`,
          ),
        );
      }
      if (!isRecord(args)) {
        return failed(
          contract(name, `the ${nameOf(projection)} projection restored arguments that are not an object`),
        );
      }
    }
    return { entry, callId: id, args, options: read };
  }

  /**
   * Checks a parked call and its answer up to its dispatch. With a seal, the
   * seal is verified before anything else of the record is read; its nonce
   * is used up later, once everything else has passed (see `#admitted`).
   */
  admitResume(stored: unknown, answer: unknown, options: unknown): Admitted | Promise<Admitted> {
    const read = readCallOptions(options, this.#limits);
    if (typeof read === "string") return failed(invalidOptions("the parked call", read));
    const seal = this.#seal;
    if (!seal) {
      if (read.subject !== undefined) return failed(invalidOptions("the parked call", SUBJECT_WITHOUT_SEAL));
      if (thrownField(stored, "seal") !== undefined) {
        return failed(
          refusedResume("the call", "the record is sealed and this set holds no seal to verify it", one(SEALED_RECORD)),
        );
      }
      return this.#admitRecord(stored, answer, read, undefined);
    }
    const expected = read.subject === undefined ? {} : { subject: read.subject };
    return seal.sealer.verify(stored, expected).then((verified) => {
      if (!verified.ok) {
        const why = `its seal is refused (${verified.reason})`;
        return failed(
          refusedResume("the call", why, one({ path: "/seal", keyword: "seal", message: verified.message })),
        );
      }
      return this.#admitRecord(verified.record, answer, read, () => spendNonce(seal, verified.stamp));
    }, (error: unknown) => unexpected(error));
  }

  #admitRecord(
    stored: unknown,
    answer: unknown,
    read: CallOptions,
    burn: (() => Promise<string | undefined>) | undefined,
  ): Admitted | Promise<Admitted> {
    const record = readRecord(stored, this.#limits);
    if (!("v" in record)) {
      return failed(refusedResume("the call", "the record is malformed", one(record)));
    }
    const tool = `"${record.tool}"`;
    const inputProblem = checkJsonValue(record.input, this.#limits);
    if (inputProblem) {
      return failed(refusedResume(
        tool,
        "the record's input is not bounded JSON",
        one({ ...inputProblem, path: `/input${inputProblem.path}` }),
      ));
    }
    const entry = this.#entries.get(record.tool);
    if (!entry) {
      return failed(notFoundToResume(record.tool));
    }
    if (entry.descriptor.version !== record.version) {
      const why =
        `the tool changed since the call was parked: the record is for version ${record.version} and the registered tool is version ${entry.descriptor.version}`;
      return failed(
        refusedResume(tool, why, one({ path: "/version", keyword: "const", message: `Cannot resume as ${why}` })),
      );
    }
    // An approval is answered yes or no, whatever the record says: a record cannot widen what resumes it.
    let resumeSchema = approvalSchema ??= compileSchemaApart(APPROVAL_RESUME_SCHEMA, {
      label: "approval resume schema",
    });
    if (record.origin === "handler") {
      // A record that is not sealed may have been rewritten by whoever held it: its schema is from outside. Its
      // patterns run in linear time, and (being untrusted) it never runs on the fallback validator, which has no budget.
      let patterns: PatternEngine | undefined;
      if (burn === undefined) {
        const engine = outsidePatterns(record.resumeSchema);
        if (engine instanceof Promise) return engine.then(() => this.#admitRecord(stored, answer, read, burn));
        patterns = engine;
      }
      try {
        resumeSchema = compileSchemaApart(record.resumeSchema, {
          label: "resume schema",
          ...(patterns && { patterns }),
        });
      } catch (error) {
        return failed(refusedResume(
          tool,
          "the record's resume schema is invalid",
          one({ path: "/resumeSchema", keyword: "schema", message: describeThrown(error) }),
        ));
      }
    }
    // The compiled validator and the fallback load apart from the core: a record whose schema needs either is read
    // again once it has.
    const loading = resumeSchema.loading;
    if (loading !== undefined) return loading.then(() => this.#admitRecord(stored, answer, read, burn));
    // The answer handed on is exactly the copy that was validated.
    const copied = copyJsonValue(answer, this.#limits);
    const verdict = copied.ok ? resumeSchema.validate(copied.value) : { ok: false as const, ...one(copied.problem) };
    if (!verdict.ok) {
      return failed(refusedResume(tool, "the answer does not meet the record's resume schema", verdict));
    }
    return {
      entry,
      callId: record.callId,
      // The record is a private copy already.
      args: record.input as Record<string, unknown>,
      options: read,
      resume: {
        answer: (copied as { value: unknown }).value,
        origin: record.origin,
        ...(record.payload === undefined ? {} : { payload: record.payload }),
        ...(burn ? { burn } : {}),
      },
      idempotencyKey: read.idempotencyKey ?? record.idempotencyKey,
    };
  }

  /**
   * Admits a call and runs it to its terminal, handing progress to
   * `onProgress` and telling the call's observer. Never throws or rejects.
   */
  settle(admit: () => Admitted | Promise<Admitted>, watch?: Watch): Promise<TerminalEvent> {
    const admitted = admitSafely(admit);
    if (admitted instanceof Promise) return admitted.then((ready) => this.settle(() => ready, watch));
    if ("type" in admitted) {
      watch?.end(admitted);
      return Promise.resolve(admitted);
    }
    const onProgress = admitted.options.onProgress;
    if (watch === undefined && onProgress === undefined) return this.#drive(admitted, IGNORE_PROGRESS, watch);
    return this.#drive(watch === undefined ? admitted : observed(admitted, watch), (event) => {
      watch?.progress(event);
      try {
        onProgress?.(event);
      } catch {
        // A failing progress callback must not fail the call.
      }
    }, watch);
  }

  /**
   * Streams an admitted call: its progress as it comes, then its terminal.
   * A slow reader gets the latest progress, not every report (see
   * `EventQueue`). A caller that stops reading cancels the call, even while
   * a `next()` of its waits. `observe` starts the call's watch, once the
   * stream is first read.
   */
  events(
    admit: () => Admitted | Promise<Admitted>,
    observe: () => Watch | undefined,
  ): AsyncGenerator<ToolEvent, void, undefined> {
    const queue = new EventQueue();
    let control: CallControl | undefined;
    let cancelled = false;
    // Stops a call whose reader walks away before its terminal; one cancelled while it is admitted stops on its start.
    const cancel = () => {
      cancelled = true;
      if (!queue.finished) control?.cancel();
    };
    const events = this.#events(admit, observe, queue, cancel, (made) => {
      control = made;
      if (cancelled) made.cancel();
    });
    // An async generator runs return() and throw() only once its pending next() settles, which for a running call is
    // when its tool next reports: they stop the call first, so that next() settles at once with the call's terminal.
    const { return: end, throw: raise } = events;
    events.return = (value) => (cancel(), end.call(events, value));
    events.throw = (error) => (cancel(), raise.call(events, error));
    return events;
  }

  async *#events(
    admit: () => Admitted | Promise<Admitted>,
    observe: () => Watch | undefined,
    queue: EventQueue,
    cancel: () => void,
    onControl: (control: CallControl) => void,
  ): AsyncGenerator<ToolEvent, void, undefined> {
    const watch = observe();
    const admitted = await admitSafely(admit);
    if ("type" in admitted) {
      watch?.end(admitted);
      yield admitted;
      return;
    }
    // The observer hears of each event as it happens, not as the reader reads it.
    const job = watch === undefined ? admitted : observed(admitted, watch);
    this.#drive(
      job,
      (event) => {
        watch?.progress(event);
        queue.progress(event);
      },
      watch,
      onControl,
    ).then((terminal) => queue.finish(terminal));
    try {
      while (true) {
        let event: ToolEvent | undefined;
        while ((event = queue.take()) !== undefined) {
          yield event;
          if (event.type !== "progress") return;
        }
        await queue.next();
      }
    } finally {
      cancel();
    }
  }

  /**
   * Runs an admitted call to its one terminal, handing each progress event
   * to `emit` as it happens. Plain promises, no stream machinery: this is
   * the path every call takes. A call that ends synchronously (synchronous
   * parsers and handler) takes no promise turn before its terminal. Never
   * rejects.
   */
  #drive(
    job: Dispatch,
    emit: (event: ProgressEvent) => void,
    watch: Watch | undefined,
    onControl?: (control: CallControl) => void,
  ): Promise<TerminalEvent> {
    let control: CallControl | undefined;
    let ran: TerminalEvent | Promise<TerminalEvent>;
    try {
      const { entry, options } = job;
      const timeoutMs = options.timeoutMs ?? entry.descriptor.timeoutMs;
      // A stream's reader may walk away, so a streamed call can always be stopped.
      control = new CallControl(options.signal, timeoutMs, onControl !== undefined);
      onControl?.(control);
      ran = this.#run(job, control, emit);
    } catch (error) {
      ran = unexpected(error);
    }
    if (ran instanceof Promise) return released(ran, control, watch);
    control?.dispose();
    watch?.end(ran);
    return Promise.resolve(ran);
  }

  #stopped(
    job: Dispatch,
    control: CallControl,
    started: boolean,
  ): TerminalEvent {
    const { descriptor } = job.entry;
    const uncertain = started &&
      descriptor.semantics.idempotency !== "idempotent";
    return failed(stopped(descriptor.name, control.stopped ?? "cancelled", uncertain));
  }

  /** Checks a resume answer with the tool's own schema, then validates the input. */
  #run(
    job: Dispatch,
    control: CallControl,
    emit: (event: ProgressEvent) => void,
  ): TerminalEvent | Promise<TerminalEvent> {
    if (control.stopped) return this.#stopped(job, control, false);
    const parseResume = job.resume?.origin === "handler" ? job.entry.parseResume : undefined;
    if (!parseResume) return this.#parseInput(job, control, emit);
    const parsed = parseWith(parseResume, job.resume!.answer);
    const next = (outcome: ParseOutcome) => {
      const { name } = job.entry.descriptor;
      if ("broken" in outcome) return failed(contract(name, `parseResume() ${outcome.broken}`));
      if ("costly" in outcome) return failed(costlySchema(name, "resume answer", outcome.costly));
      if (!outcome.ok) {
        return failed(refusedResume(`"${name}"`, "the answer does not meet the tool's resume schema", outcome));
      }
      const resumed: Dispatch = { ...job, resume: { ...job.resume!, answer: outcome.value } };
      return this.#parseInput(resumed, control, emit);
    };
    if (!(parsed instanceof Promise)) return next(parsed);
    return control.race(parsed).then((raced) => raced === STOPPED ? this.#stopped(job, control, false) : next(raced));
  }

  /** Validates the input; a synchronous parser answers without a promise turn. */
  #parseInput(
    job: Dispatch,
    control: CallControl,
    emit: (event: ProgressEvent) => void,
  ): TerminalEvent | Promise<TerminalEvent> {
    const { entry } = job;
    const parsed = entry.inputCheck ? validated(entry.inputCheck, job.args) : parseWith(entry.parseInput, job.args);
    if (!(parsed instanceof Promise)) return this.#admitted(job, control, parsed, emit);
    return control.race(parsed).then((raced) =>
      raced === STOPPED ? this.#stopped(job, control, false) : this.#admitted(job, control, raced, emit)
    );
  }

  /** Takes a parsed input through the idempotency key and approval to its execution. */
  #admitted(
    job: Dispatch,
    control: CallControl,
    parsed: ParseOutcome,
    emit: (event: ProgressEvent) => void,
  ): TerminalEvent | Promise<TerminalEvent> {
    const { entry, options, args } = job;
    const { descriptor } = entry;
    if ("broken" in parsed) {
      return failed(contract(descriptor.name, `parseInput() ${parsed.broken}`));
    }
    if ("costly" in parsed) return failed(costlySchema(descriptor.name, "arguments", parsed.costly));
    if (!parsed.ok) return failed(invalidInput(descriptor.name, parsed));

    let idempotencyKey = job.idempotencyKey ?? options.idempotencyKey;
    if (
      idempotencyKey === undefined && descriptor.idempotencyKey !== undefined
    ) {
      const key = keyAt(args, descriptor.idempotencyKey);
      if (typeof key !== "string") {
        return failed(invalidInput(descriptor.name, one(key)));
      }
      idempotencyKey = key;
    }
    const burn = job.resume?.burn;
    if (burn) return this.#burnThenDecide(job, control, burn, parsed.value, idempotencyKey, emit);
    return this.#decide(job, control, parsed.value, idempotencyKey, emit);
  }

  /**
   * Uses up a sealed record's nonce: the last check, after the seal, the
   * tool, its version, the answer and the input all passed, so a resume
   * refused for any of those leaves the record usable. Once used up, the
   * record is spent whatever follows: an approval's no, the handler's failure.
   */
  async #burnThenDecide(
    job: Dispatch,
    control: CallControl,
    burn: () => Promise<string | undefined>,
    input: unknown,
    idempotencyKey: string | undefined,
    emit: (event: ProgressEvent) => void,
  ): Promise<TerminalEvent> {
    const refused = await control.race(burn());
    if (refused === STOPPED) return this.#stopped(job, control, false);
    if (refused !== undefined) return failed(refusedResume(`"${job.entry.descriptor.name}"`, refused, one(SPENT)));
    return this.#decide(job, control, input, idempotencyKey, emit);
  }

  /** Runs an approved resume, asks the gate of a new call, or refuses it. */
  #decide(
    job: Dispatch,
    control: CallControl,
    input: unknown,
    idempotencyKey: string | undefined,
    emit: (event: ProgressEvent) => void,
  ): TerminalEvent | Promise<TerminalEvent> {
    const { entry, options } = job;
    const { descriptor } = entry;
    if (job.resume?.origin === "approval") {
      const answer = job.resume.answer as ApprovalAnswer;
      if (answer.approved !== true) {
        return failed(deniedByPerson(descriptor.name, answer.reason));
      }
    } else if (job.resume === undefined) {
      const gate = options.approve ?? this.#approve;
      if (gate) return this.#approved(job, control, gate, input, idempotencyKey, emit);
      if (entry.needsPolicy) {
        return failed(noApprovalGate(descriptor.name));
      }
    }
    return this.#invoke(job, control, input, idempotencyKey, emit);
  }

  /** Asks the approval gate, then executes the call, parks it or refuses it. */
  async #approved(
    job: Dispatch,
    control: CallControl,
    gate: ApprovalGate,
    input: unknown,
    idempotencyKey: string | undefined,
    emit: (event: ProgressEvent) => void,
  ): Promise<TerminalEvent> {
    const { descriptor } = job.entry;
    let decision: ApprovalDecision | typeof STOPPED;
    try {
      decision = await control.race(gate(descriptor, input, this.#asked));
    } catch (error) {
      return failed(approvalGateFailed(descriptor.name, error));
    }
    if (decision === STOPPED) {
      return this.#stopped(job, control, false);
    }
    const verdict = readVerdict(decision, this.#limits);
    if (typeof verdict === "string") {
      return failed(approvalGateFailed(descriptor.name, `the gate's answer is not a decision: ${verdict}`));
    }
    if (verdict.decision === "suspend") {
      return this.#parked(
        suspendedRecord(job, idempotencyKey, {
          reason: verdict.reason ?? `The call to "${descriptor.name}" needs approval`,
          resumeSchema: APPROVAL_RESUME_SCHEMA,
          payload: verdict.payload,
          origin: "approval",
        }),
        job.options.subject,
      );
    }
    if (verdict.decision === "deny") {
      return failed(refusedByPolicy(descriptor.name, verdict.reason));
    }
    return this.#invoke(job, control, input, idempotencyKey, emit);
  }

  /** Hands a validated, approved call to its tool. */
  #invoke(
    job: Dispatch,
    control: CallControl,
    input: unknown,
    idempotencyKey: string | undefined,
    emit: (event: ProgressEvent) => void,
  ): TerminalEvent | Promise<TerminalEvent> {
    // The tool must not start once the call's time is up: a remote tool would
    // still send a request whose answer nobody waits for.
    if (control.expired()) return this.#stopped(job, control, false);
    const invocation = new ValidatedInvocation(INVOCATION_TOKEN, {
      callId: job.callId,
      tool: job.entry.descriptor.name,
      input,
      idempotencyKey,
    });
    // The resolved key goes with the job, so a suspension's record keeps it too.
    // Built field by field, and only when the key changed: a spread here made
    // objects of varying shape that every later read of the job paid for.
    const resolved: Dispatch = idempotencyKey === job.idempotencyKey ? job : {
      entry: job.entry,
      callId: job.callId,
      args: job.args,
      options: job.options,
      resume: job.resume,
      idempotencyKey,
    };
    return this.#execute(resolved, control, invocation, emit);
  }

  #execute(
    job: Dispatch,
    control: CallControl,
    invocation: ValidatedInvocation,
    emit: (event: ProgressEvent) => void,
  ): TerminalEvent | Promise<TerminalEvent> {
    const { entry, options } = job;
    let open = true;
    const ctx: ToolContext = new CallContext(control, {
      callId: invocation.callId,
      idempotencyKey: invocation.idempotencyKey,
      resume: job.resume?.origin === "handler" ? job.resume.answer : undefined,
      resumePayload: job.resume?.origin === "handler" ? job.resume.payload : undefined,
      extensions: options.extensions ?? NO_EXTENSIONS,
      progress(event) {
        const progress = readProgress(event);
        if (typeof progress === "string") {
          throw new TypeError(`Cannot report progress as ${progress}`);
        }
        if (open) emit(progress);
      },
    });
    const direct = directRunOf(entry.tool);
    if (!direct) {
      return this.#executeStream(job, control, invocation, ctx, emit, () => {
        open = false;
      });
    }
    let ended: TerminalEvent | Promise<TerminalEvent> | undefined;
    try {
      ended = this.#executeDirect(job, control, direct, invocation, ctx);
    } finally {
      // Progress is taken until the call ends, and not after.
      if (!(ended instanceof Promise)) open = false;
    }
    if (!(ended instanceof Promise)) return ended;
    return ended.then((terminal) => {
      open = false;
      return terminal;
    }, (error: unknown) => {
      open = false;
      throw error;
    });
  }

  /** Reads a tool's execute() stream to its terminal; `close` stops taking the handler's progress. */
  async #executeStream(
    job: Dispatch,
    control: CallControl,
    invocation: ValidatedInvocation,
    ctx: ToolContext,
    emit: (event: ProgressEvent) => void,
    close: () => void,
  ): Promise<TerminalEvent> {
    const { entry } = job;
    const name = entry.descriptor.name;
    let iterator: AsyncIterator<ExecutionEvent>;
    try {
      iterator = entry.tool.execute(invocation, ctx)[Symbol.asyncIterator]();
    } catch (error) {
      return failed(contract(name, `execute() threw: ${describeThrown(error)}`));
    }
    // The promise constructor also catches an iterator whose next() throws or returns no promise.
    const step = () =>
      new Promise<IteratorResult<ExecutionEvent>>((resolve) => resolve(iterator.next())).then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
    let terminal: TerminalEvent | undefined;
    let ended = false;
    try {
      while (true) {
        // After its terminal a stream only has to end; one that never does is closed after a grace.
        const outcome = await control.race(terminal ? withinEndGrace(step()) : step());
        // A stream that yields on microtasks alone keeps the timer from firing: its deadline is read at each step. A
        // call stopped in its end grace has its terminal, checked already: it ends with it.
        if (outcome === STOPPED || outcome === GRACE_OVER || control.expired()) {
          return terminal ?? this.#stopped(job, control, true);
        }
        if ("error" in outcome) {
          ended = true;
          return failed(
            terminal
              ? contract(
                name,
                `the stream threw after its terminal event: ${describeThrown(outcome.error)}`,
              )
              : contract(name, `the stream threw: ${describeThrown(outcome.error)}`),
          );
        }
        if (outcome.result.done) {
          ended = true;
          break;
        }
        if (terminal) {
          return failed(
            contract(
              name,
              "the stream yielded an event after its terminal event",
            ),
          );
        }
        const event: unknown = outcome.result.value;
        if (isRecord(event) && event.type === "progress") {
          const progress = readProgress(event);
          if (typeof progress === "string") {
            return failed(contract(name, `the stream yielded a malformed progress event: ${progress}`));
          }
          emit(progress);
        } else {
          // Output validation may be async (an MCP tool's parser): the timeout bounds it too.
          const settled = this.#terminal(job, event);
          const checked = settled instanceof Promise ? await control.race(settled) : settled;
          if (checked === STOPPED) return this.#stopped(job, control, true);
          terminal = checked;
        }
      }
      if (!terminal) {
        return failed(
          contract(name, "the stream ended without a terminal event"),
        );
      }
      return terminal;
    } finally {
      close();
      if (!ended) {
        // The call is over but the stream is still running (stopped, abandoned by
        // the caller, or in breach): abort its signal and ask it to close; it may not listen.
        control.cancel();
        new Promise((resolve) => resolve(iterator.return?.())).catch(() => {});
      }
    }
  }

  /**
   * Runs a tool's handler directly: its one event is the stream's only
   * event. A synchronous handler's event is checked without a promise turn.
   */
  #executeDirect(
    job: Dispatch,
    control: CallControl,
    run: DirectRun,
    invocation: ValidatedInvocation,
    ctx: ToolContext,
  ): TerminalEvent | Promise<TerminalEvent> {
    const name = job.entry.descriptor.name;
    let event: ExecutionEvent | Promise<ExecutionEvent>;
    try {
      event = run(invocation, ctx);
    } catch (error) {
      return streamThrew(name, error);
    }
    return event instanceof Promise
      ? control.race(event).then(
        (raced) => this.#directEnd(job, control, raced),
        (error: unknown) => streamThrew(name, error),
      )
      : this.#directEnd(job, control, control.stopped ? STOPPED : event);
  }

  /** Checks the handler's event, unless the call stopped first; the timeout bounds output validation too. */
  #directEnd(
    job: Dispatch,
    control: CallControl,
    event: ExecutionEvent | typeof STOPPED,
  ): TerminalEvent | Promise<TerminalEvent> {
    if (event === STOPPED) return this.#stopped(job, control, true);
    const settled = this.#terminal(job, event);
    return settled instanceof Promise
      ? control.race(settled).then((checked) => checked === STOPPED ? this.#stopped(job, control, true) : checked)
      : settled;
  }

  /** Checks a terminal event from a tool and turns it into the caller's terminal. */
  #terminal(job: Dispatch, event: unknown): TerminalEvent | Promise<TerminalEvent> {
    const { entry } = job;
    const name = entry.descriptor.name;
    if (!isRecord(event)) {
      return failed(
        contract(name, "the stream yielded a value that is not an event"),
      );
    }
    if (event.type === "failed") {
      const failure = readFailure(event.failure);
      return failed(
        typeof failure === "string" ? contract(name, `the stream yielded a malformed failure: ${failure}`) : failure,
      );
    }
    if (event.type === "suspended") {
      const suspension = readSuspension(event.suspension, this.#limits);
      if (typeof suspension === "string") {
        return failed(contract(name, `the stream yielded a malformed suspension: ${suspension}`));
      }
      return this.#parked(
        suspendedRecord(job, job.idempotencyKey ?? job.options.idempotencyKey, { ...suspension, origin: "handler" }),
        job.options.subject,
      );
    }
    if (event.type === "output") {
      return this.#output(name, entry, event.result);
    }
    return failed(
      contract(
        name,
        `the stream yielded an unknown event type ${showValue(event.type)}`,
      ),
    );
  }

  #output(
    name: string,
    entry: Entry,
    result: unknown,
  ): TerminalEvent | Promise<TerminalEvent> {
    if (!isRecord(result) || !Array.isArray(result.content)) {
      return failed(
        contract(name, "the output event has no result with a content list"),
      );
    }
    const given = result.content;
    const content = given === OUTPUT_AS_TEXT ? given : checkedContent(given);
    if (typeof content === "string") return failed(contract(name, content));
    const own: Record<string, unknown> = content === given ? result : { ...result, content };
    const output = own.output;
    if (output === undefined) {
      if (entry.descriptor.outputSchema !== undefined) {
        return failed(
          invalidOutput(
            name,
            one({
              path: "",
              keyword: "required",
              message: "The structured output is missing.",
            }),
          ),
        );
      }
      return outputEvent(own, undefined);
    }
    // Validated and handed on is one private copy: a handler that kept the
    // output, or built it of getters, cannot change it after the check.
    const copied = copyJsonValue(output, this.#limits);
    if (!copied.ok) return failed(invalidOutput(name, one(copied.problem)));
    if (!entry.parseOutput) return outputEvent(own, copied.value);
    const parsed = entry.outputCheck
      ? validated(entry.outputCheck, copied.value)
      : parseWith(entry.parseOutput, copied.value);
    return parsed instanceof Promise
      ? parsed.then((outcome) => parsedOutput(name, own, outcome))
      : parsedOutput(name, own, parsed);
  }
}
