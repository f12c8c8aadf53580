/**
 * Defining tools: typed tools from Valibot schemas, and raw tools from
 * JSON Schema.
 *
 * @module
 */

import type { DynTool, ToolContext, ValidatedInvocation } from "../contract/dyn.ts";
import { InvalidSpecError } from "../common/errors.ts";
import type { ExecutionEvent, Suspension } from "../contract/events.ts";
import { failureFromThrown, toolFailure } from "../contract/failure.ts";
import { type ResultValue, toToolResult } from "../contract/result.ts";
import { checkJsonSchema, compileSchemaApart, type JsonSchema } from "../schema/schema.ts";
import type { PatternEngine } from "../schema/validator/patterns.ts";
import type { ValidatorBudget } from "../schema/validator/budget.ts";
import { describeTool, type ToolDescriptor, type ToolSpec } from "../contract/spec.ts";
import { effectWarnings } from "../contract/effect.ts";
import { SuspendRequest } from "../contract/suspend.ts";
import { deriveJsonSchema, parseWithValibot } from "../schema/_valibot.ts";
import type { ValibotSchema } from "../schema/valibot_schema.ts";
import type { StandardSchema, ToolSchema, ToolSchemaInput, ToolSchemaOutput } from "../schema/standard_schema.ts";
import {
  binaryAt,
  isStandardSchema,
  ownJsonSchema,
  parseWithStandard,
  type SchemaSide,
} from "../schema/_standard_schema.ts";
import type { ParseResult } from "../schema/schema.ts";
import { markChecked } from "./_checked.ts";
import { withDirectRun } from "./_direct.ts";
import { parserFor } from "./_parser.ts";
import { messageOfThrown } from "../common/_describe_thrown.ts";

/** What a handler may return: an output, a rich result, or a suspension. */
export type HandlerReturn<Output> =
  | Output
  | ResultValue<Output>
  | SuspendRequest;

/** A handler's context, its `resume` typed by the tool's resume schema. */
export type HandlerContext<Resume = unknown> = Omit<ToolContext, "resume"> & {
  /** The answer, validated and transformed by the tool's resume schema, when the call is resumed. */
  readonly resume?: Resume;
};

/** A tool handler: gets the validated input, returns or throws. */
export type Handler<Input, Output, Resume = unknown> = (
  input: Input,
  ctx: HandlerContext<Resume>,
) => HandlerReturn<Output> | Promise<HandlerReturn<Output>>;

/** The spec fields every way of defining a tool shares. */
export type ToolMetadata = Omit<ToolSpec, "inputSchema" | "outputSchema">;

/** Options for {@linkcode defineTool}. */
export interface DefineToolOptions<
  In extends ToolSchema,
  Out extends ToolSchema | undefined,
  Resume extends ToolSchema | undefined = undefined,
> extends ToolMetadata {
  /**
   * The schema of the arguments, an object schema: Valibot, or any
   * Standard Schema v1 (zod 4, ArkType, ...). The source of truth.
   */
  readonly inputSchema: In;
  /** The schema of the structured output, when there is one. */
  readonly outputSchema?: Out;
  /**
   * The JSON Schema a model sees for a Standard Schema input, when the
   * schema offers no conversion of its own or to replace it. Not for a
   * Valibot input, whose JSON Schema is always derived.
   */
  readonly inputJsonSchema?: JsonSchema;
  /** As `inputJsonSchema`, for a Standard Schema output. */
  readonly outputJsonSchema?: JsonSchema;
  /**
   * The schema of the answer that resumes a suspended call: Valibot or a
   * Standard Schema with its own JSON Schema conversion. A record keeps the
   * derived JSON Schema; a resume checks the answer against it and then
   * against this schema itself, so checks and transforms JSON Schema cannot
   * carry still run, and `ctx.resume` gets (and is typed by) its output.
   * `suspend()` may then leave out its own `resumeSchema`.
   */
  readonly resumeSchema?: Resume;
  /** The handler. */
  readonly run: Handler<
    ToolSchemaOutput<In>,
    Out extends ToolSchema ? ToolSchemaInput<Out> : unknown,
    Resume extends ToolSchema ? ToolSchemaOutput<Resume> : unknown
  >;
}

/** A tool made by {@linkcode defineTool} or {@linkcode defineJsonTool}, with what its definition should look at again. */
export interface DefinedTool extends DynTool {
  /**
   * Definition warnings: an effect one edit away from a known one (a likely
   * typo, which fails every call closed), and transforms, fallbacks and checks
   * that run after validation but are not in the JSON Schema a model sees.
   */
  readonly warnings: readonly string[];
}

/** A tool with its input and output types, dispatched like any {@linkcode DynTool}. */
export interface TypedTool<Input, Output> extends DefinedTool {
  /** Type-level only: the handler's input and output types. Always `undefined` at run time. */
  readonly types?: { readonly input: Input; readonly output: Output };
}

/**
 * Runs a handler and turns what it returns or throws into its one event.
 * A handler that returns synchronously gets its event without a promise turn.
 */
function handle<Input>(
  name: string,
  run: Handler<Input, unknown>,
  input: Input,
  ctx: ToolContext,
  resumeSchemaOf: (resume: SuspendRequest["resumeSchema"]) => JsonSchema,
): ExecutionEvent | Promise<ExecutionEvent> {
  let returned: unknown;
  try {
    returned = run(input, ctx);
  } catch (thrown) {
    return threw(name, thrown);
  }
  // Outside the try: a returned value that throws as it is read (a revoked proxy) broke the contract; the handler
  // itself did not fail.
  if (isThenable(returned)) {
    return Promise.resolve(returned).then(
      (value) => eventOf(name, value, resumeSchemaOf),
      (thrown: unknown) => threw(name, thrown),
    );
  }
  return eventOf(name, returned, resumeSchemaOf);
}

/** Whether awaiting a value would wait for it: a promise or any other thenable. */
function isThenable(value: unknown): boolean {
  return (typeof value === "object" && value !== null || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function";
}

function threw(name: string, thrown: unknown): ExecutionEvent {
  return { type: "failed", failure: failureFromThrown(name, thrown) };
}

/** The event of what a handler returned: a suspension or an output. */
function eventOf(
  name: string,
  returned: unknown,
  resumeSchemaOf: (resume: SuspendRequest["resumeSchema"]) => JsonSchema,
): ExecutionEvent {
  if (returned instanceof SuspendRequest) {
    let suspension: Suspension;
    try {
      suspension = {
        reason: returned.reason,
        resumeSchema: resumeSchemaOf(returned.resumeSchema),
        payload: returned.payload,
      };
    } catch (error) {
      const detail = messageOfThrown(error);
      return {
        type: "failed",
        failure: toolFailure(
          "contract",
          `Tool "${name}" suspended with a bad resume schema: ${detail}`,
        ),
      };
    }
    return { type: "suspended", suspension };
  }
  return { type: "output", result: toToolResult(returned, true) };
}

/** The stream of a handler's one event, started when first read. */
async function* streamOf(start: () => ExecutionEvent | Promise<ExecutionEvent>): AsyncGenerator<ExecutionEvent> {
  yield await start();
}

/** Makes a tool of these fields that runs `run`: through execute(), or directly from a registry. */
function handlerTool<T extends Omit<DynTool, "execute">>(
  fields: T,
  run: Handler<unknown, unknown>,
  resume?: DeclaredResume,
): T & Pick<DynTool, "execute"> {
  const name = fields.descriptor.name;
  const resumeSchemaOf = resumeSchemaFor(name, resume);
  const direct = (invocation: ValidatedInvocation, ctx: ToolContext) =>
    handle(name, run, invocation.input, ctx, resumeSchemaOf);
  const tool = {
    ...fields,
    execute: (invocation: ValidatedInvocation, ctx: ToolContext) => streamOf(() => direct(invocation, ctx)),
  };
  return withDirectRun(markChecked(tool), direct);
}

function isValibotSchema(value: unknown): value is ValibotSchema {
  return typeof value === "object" && value !== null &&
    (value as { kind?: unknown }).kind === "schema" &&
    typeof (value as { "~run"?: unknown })["~run"] === "function";
}

function deriveOrRefuse(name: string, label: string, schema: ValibotSchema) {
  let derived: ReturnType<typeof deriveJsonSchema>;
  try {
    derived = deriveJsonSchema(schema, label === "output" ? "output" : "input");
  } catch (error) {
    // The conversion recurses: a schema nested thousands deep overflows the stack (a RangeError).
    throw new InvalidSpecError(
      `Cannot define "${name}" as its ${label} could not be converted to JSON Schema: ${messageOfThrown(error)}`,
      { path: `/${label}` },
    );
  }
  if (derived.refusals.length > 0) {
    throw new InvalidSpecError(
      `Cannot define "${name}" as its ${label} holds a shape JSON cannot carry: ${derived.refusals.join(" ")}`,
      {
        problems: derived.refusals.map((message) => ({
          path: `/${label}`,
          message,
        })),
      },
    );
  }
  if (derived.retyped.length > 0) {
    throw new InvalidSpecError(
      `Cannot define "${name}" as the JSON Schema of its ${label} cannot show what it returns: ${derived.retyped[0]}`,
      { path: `/${label}` },
    );
  }
  return derived;
}

/** Refuses a JSON Schema that shows binary data (a file), which no value a model or a person sends as JSON passes. */
function refuseBinary(name: string, side: SchemaSide | "resume", shown: JsonSchema): void {
  const at = binaryAt(shown);
  if (at === undefined) return;
  throw new InvalidSpecError(
    `Cannot define "${name}" as its ${side} holds a shape JSON cannot carry: binary data (a file) at ${
      at || "the root"
    } of its JSON Schema, which no JSON value passes`,
    { path: `/${side}${at}` },
  );
}

function isToolSchema(value: unknown): value is ToolSchema {
  return isValibotSchema(value) || isStandardSchema(value);
}

/** One side of a typed tool: the JSON Schema a model sees, the parser, and what the schema cannot show. */
interface TypedSide {
  readonly jsonSchema: JsonSchema;
  readonly warnings: readonly string[];
  readonly parse: (value: unknown) => ParseResult | Promise<ParseResult>;
  /** Whether a Standard Schema's own conversion gave the JSON Schema, rather than the caller. */
  readonly converted?: boolean;
}

function sideOf(
  name: string,
  side: SchemaSide | "resume",
  schema: ToolSchema,
  explicit: JsonSchema | undefined,
): TypedSide {
  const field = `${side}JsonSchema`;
  if (isValibotSchema(schema)) {
    if (explicit !== undefined) {
      throw new InvalidSpecError(
        `Cannot define "${name}" as ${field} is for Standard Schemas: current value is given for a Valibot ${side}, whose JSON Schema is derived`,
        { path: `/${field}` },
      );
    }
    const derived = deriveOrRefuse(name, side, schema);
    // What a handler returns is shown to the model as JSON: a tuple's items left off stay off.
    const shortTuples = side === "output" && derived.shortTuples;
    return { ...derived, parse: (value) => parseWithValibot(schema, value, shortTuples) };
  }
  const standard = schema as StandardSchema;
  let jsonSchema = explicit;
  if (jsonSchema === undefined) {
    try {
      // A resume answer is what the schema takes in.
      jsonSchema = ownJsonSchema(standard, side === "output" ? "output" : "input");
    } catch (error) {
      const detail = messageOfThrown(error);
      throw new InvalidSpecError(
        `Cannot define "${name}" as its ${side} schema cannot convert itself to JSON Schema (pass ${field}): ${detail}`,
        { path: `/${side}` },
      );
    }
  }
  if (jsonSchema === undefined) {
    throw new InvalidSpecError(
      `Cannot define "${name}" as its ${
        String(standard["~standard"].vendor)
      } ${side} schema offers no JSON Schema conversion: current value is no ${field} either`,
      { path: `/${field}` },
    );
  }
  return {
    jsonSchema,
    warnings: [],
    parse: (value) => parseWithStandard(standard, value),
    converted: explicit === undefined,
  };
}

/** A tool's declared resume schema: the schema itself and its side. */
interface DeclaredResume extends TypedSide {
  readonly schema: ToolSchema;
}

/**
 * The JSON Schema a suspension's record keeps. A Valibot schema with checks
 * or transforms JSON Schema cannot carry is refused unless it is the tool's
 * declared one: a resume could not run them, and would accept what they refuse.
 */
function resumeSchemaFor(name: string, declared: DeclaredResume | undefined) {
  return (resume: SuspendRequest["resumeSchema"]): JsonSchema => {
    if (resume === undefined || resume === declared?.schema) {
      if (declared) return declared.jsonSchema;
      throw new TypeError("suspend() needs a resumeSchema as the tool declares none");
    }
    if (!isValibotSchema(resume)) return resume;
    const derived = deriveOrRefuse(name, "resume schema", resume);
    if (derived.warnings.length > 0) {
      throw new TypeError(
        `its schema holds what JSON Schema cannot carry (${
          derived.warnings[0]
        }), which a resume would skip: declare it as the tool's resumeSchema`,
      );
    }
    return derived.jsonSchema;
  };
}

// The spec fields a define function copies from its options, and no others (never `run` or the schemas).
const METADATA_FIELDS = [
  "name",
  "version",
  "title",
  "description",
  "effects",
  "semantics",
  "timeoutMs",
  "idempotencyKey",
  "hints",
] as const satisfies readonly (keyof ToolMetadata)[];

function metadataOf(options: ToolMetadata): ToolMetadata {
  const spec: Record<string, unknown> = {};
  for (const field of METADATA_FIELDS) {
    if (options[field] !== undefined) spec[field] = options[field];
  }
  return spec as unknown as ToolMetadata;
}

/**
 * Defines a typed tool from Valibot schemas or any Standard Schema v1
 * (zod 4, ArkType, ...). For Valibot, the JSON Schema a model sees is
 * derived from the input schema (Draft 2020-12), and the output's from
 * what the output schema makes of a result; Valibot stays the source
 * of truth, so transforms and defaults apply before the handler runs. An
 * input that JSON cannot carry (a `Date`, `Map`, function, ...) is
 * refused, and so is an output transformed to a type no schema after the
 * transformation names; transforms, fallbacks and checks that JSON Schema
 * cannot express (one past a second schema in a pipe, or a regex with
 * flags, included) are listed in `warnings`. A Standard Schema validates through
 * `~standard.validate` (sync or async), its issues become the same
 * diagnostics, and its JSON Schema comes from `inputJsonSchema` when given,
 * else from its own conversion (`~standard.jsonSchema`, zod's
 * `toJSONSchema()`, ArkType's `toJsonSchema()`); with neither, the
 * definition is refused, as it is when that conversion shows binary data
 * (zod's `z.file()`), which no JSON value passes.
 *
 * @param options The spec fields, the schemas and the handler.
 * @returns The typed tool, ready to register.
 * @throws {InvalidSpecError} When the spec or a schema is refused.
 *
 * @example A typed tool gets typed, transformed input
 * ```ts
 * import { defineTool, ToolSet } from "@salvor/tools";
 * import * as v from "valibot";
 * import assert from "node:assert/strict";
 *
 * const shout = defineTool({
 *   name: "shout",
 *   description: "Upper-cases a text.",
 *   inputSchema: v.object({ text: v.pipe(v.string(), v.trim()) }),
 *   outputSchema: v.object({ text: v.string() }),
 *   effects: [],
 *   run: (input) => ({ text: input.text.toUpperCase() }),
 * });
 * assert.equal(shout.warnings.length, 1); // the trim is not in the JSON Schema
 * const end = await new ToolSet().register(shout).call({
 *   id: "call_1",
 *   name: "shout",
 *   arguments: '{"text":"  hi "}',
 * });
 * assert.equal(end.type, "output");
 * if (end.type === "output") assert.deepEqual(end.result.output, { text: "HI" });
 * ```
 *
 * @example A typed resume answer, checked and transformed by the tool's resumeSchema
 * ```ts
 * import { defineTool, suspend, ToolSet } from "@salvor/tools";
 * import * as v from "valibot";
 * import assert from "node:assert/strict";
 *
 * const unlock = defineTool({
 *   name: "unlock",
 *   description: "Unlocks a door once a person gives the PIN.",
 *   inputSchema: v.object({ door: v.string() }),
 *   resumeSchema: v.object({ pin: v.pipe(v.string(), v.trim(), v.check((pin) => pin === "1234", "Wrong PIN.")) }),
 *   effects: ["external.mutation"],
 *   run: (input, ctx) =>
 *     ctx.resume === undefined ? suspend({ reason: `PIN for ${input.door}?` }) : { opened: ctx.resume.pin.length === 4 },
 * });
 * const tools = new ToolSet().register(unlock);
 * const parked = await tools.call({ id: "1", name: "unlock", arguments: { door: "front" } });
 * if (parked.type === "suspended") {
 *   const wrong = await tools.resume(parked.suspended, { pin: "0000" });
 *   assert.equal(wrong.type === "failed" && wrong.failure.kind, "invalid_input");
 *   const right = await tools.resume(parked.suspended, { pin: " 1234 " });
 *   assert.equal(right.type, "output");
 * }
 * ```
 *
 * @example Any Standard Schema, with the JSON Schema a model sees
 * ```ts
 * import { defineTool, type StandardSchema, ToolSet } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * // A hand-made Standard Schema; zod 4 and ArkType schemas fit the same slot.
 * const city: StandardSchema<{ city: string }> = {
 *   "~standard": {
 *     version: 1,
 *     vendor: "example",
 *     validate: (value) =>
 *       typeof (value as { city?: unknown }).city === "string"
 *         ? { value: value as { city: string } }
 *         : { issues: [{ message: "Expected a city name", path: ["city"] }] },
 *   },
 * };
 * const weather = defineTool({
 *   name: "weather",
 *   description: "Tomorrow's weather in a city.",
 *   inputSchema: city,
 *   inputJsonSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
 *   effects: ["network.request"],
 *   run: (input) => ({ forecast: `sunny in ${input.city}` }),
 * });
 * const end = await new ToolSet().register(weather).call({ id: "1", name: "weather", arguments: "{}" });
 * assert.equal(end.type === "failed" && end.failure.diagnostics?.[0].keyword, "required");
 * ```
 */
export function defineTool<
  In extends ToolSchema,
  Out extends ToolSchema | undefined = undefined,
  Resume extends ToolSchema | undefined = undefined,
>(
  options: DefineToolOptions<In, Out, Resume>,
): TypedTool<
  ToolSchemaOutput<In>,
  Out extends ToolSchema ? ToolSchemaOutput<Out> : unknown
> {
  const name = typeof options?.name === "string" ? options.name : "a tool";
  if (!isToolSchema(options?.inputSchema)) {
    throw new InvalidSpecError(
      `Cannot define "${name}" as inputSchema must be a Valibot schema or a Standard Schema`,
      { path: "/inputSchema" },
    );
  }
  if (options.outputSchema !== undefined && !isToolSchema(options.outputSchema)) {
    throw new InvalidSpecError(
      `Cannot define "${name}" as outputSchema must be a Valibot schema or a Standard Schema`,
      { path: "/outputSchema" },
    );
  }
  if (options.outputSchema === undefined && options.outputJsonSchema !== undefined) {
    throw new InvalidSpecError(
      `Cannot define "${name}" as outputJsonSchema describes an output schema: current value is no outputSchema`,
      { path: "/outputJsonSchema" },
    );
  }
  if (typeof options.run !== "function") {
    throw new InvalidSpecError(
      `Cannot define "${name}" as run must be a function`,
      { path: "/run" },
    );
  }
  if (options.resumeSchema !== undefined && !isToolSchema(options.resumeSchema)) {
    throw new InvalidSpecError(
      `Cannot define "${name}" as resumeSchema must be a Valibot schema or a Standard Schema`,
      { path: "/resumeSchema" },
    );
  }
  const input = sideOf(name, "input", options.inputSchema, options.inputJsonSchema);
  const resume: DeclaredResume | undefined = options.resumeSchema === undefined
    ? undefined
    : { schema: options.resumeSchema, ...sideOf(name, "resume", options.resumeSchema, undefined) };
  const output = options.outputSchema === undefined
    ? undefined
    : sideOf(name, "output", options.outputSchema, options.outputJsonSchema);
  const descriptor = describeTool({
    ...metadataOf(options),
    inputSchema: input.jsonSchema,
    ...(output ? { outputSchema: output.jsonSchema } : {}),
  });
  // The derived schemas must pass the same checks as hand-written ones; the typed schemas validate, so neither
  // JSON Schema validator is built or loaded for them.
  checkJsonSchema(descriptor.inputSchema, { label: "input schema" }, true);
  if (descriptor.outputSchema !== undefined) {
    checkJsonSchema(descriptor.outputSchema, { label: "output schema" }, true);
  }
  if (resume) checkJsonSchema(resume.jsonSchema, { label: "resume schema" });
  // Read once the checks found them bounded JSON.
  if (input.converted) refuseBinary(name, "input", descriptor.inputSchema);
  if (output?.converted && descriptor.outputSchema !== undefined) refuseBinary(name, "output", descriptor.outputSchema);
  if (resume?.converted) refuseBinary(name, "resume", resume.jsonSchema);
  return handlerTool(
    {
      descriptor,
      warnings: Object.freeze([
        ...effectWarnings(descriptor.effects),
        ...input.warnings,
        ...(output?.warnings ?? []),
      ]),
      parseInput: input.parse,
      ...(output ? { parseOutput: output.parse } : {}),
      ...(resume ? { parseResume: resume.parse } : {}),
    },
    options.run as Handler<unknown, unknown>,
    resume,
  );
}

/** Options for {@linkcode defineJsonTool}. */
export interface DefineJsonToolOptions<Input = unknown> extends ToolMetadata {
  /** The JSON Schema of the arguments: `type: "object"`. */
  readonly inputSchema: JsonSchema;
  /** The JSON Schema of the structured output. */
  readonly outputSchema?: JsonSchema;
  /**
   * Schemas a `$ref` in either schema may point to by absolute URI,
   * registered from memory: nothing is ever fetched. Keyed by that URI.
   */
  readonly remotes?: Readonly<Record<string, JsonSchema>>;
  /**
   * How `pattern` and `patternProperties` run in both schemas: the built-in
   * `RegExp` by default. For a schema from outside (a user's, a server's),
   * pass `linearPatterns` from `@salvor/tools/dyn`: nothing then backtracks,
   * and a pattern it cannot express is refused here (see `compileSchema`).
   */
  readonly patterns?: PatternEngine;
  /** `"annotate"` (default) ignores `format`; `"assert"` checks the common formats (and draft-07's content keywords). */
  readonly formats?: "annotate" | "assert";
  /**
   * Bounds on what each schema may cost to define and to validate one value
   * with, for both schemas: `DEFAULT_VALIDATOR_BUDGET` (`@salvor/tools/dyn`)
   * by default. Raise `schemaNodes` for a schema of your own that holds more
   * than 1,000 subschemas.
   */
  readonly budget?: ValidatorBudget;
  /** The handler; its input has passed `inputSchema`. */
  readonly run: Handler<Input, unknown>;
}

/**
 * Defines a tool from raw JSON Schema (Draft 2020-12, or draft-07 when
 * `$schema` says so), compiled by `compileSchema` into closures, with
 * `@cfworker/json-schema` as the fallback for what those do not implement.
 * Both schemas are checked now: a bad schema (an invalid regular
 * expression, `enum: 5`, `required: "name"`) fails here, not at call time.
 * Each is compiled into closures on its first validation, so defining many
 * tools costs only their checks.
 *
 * @param options The spec fields, the schemas and the handler.
 * @returns The tool, ready to register.
 * @throws {InvalidSpecError} When the spec or a schema is refused.
 *
 * @example Define, register and call
 * ```ts
 * import { defineJsonTool, ToolSet } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * const add = defineJsonTool<{ a: number; b: number }>({
 *   name: "add",
 *   description: "Adds two numbers.",
 *   inputSchema: {
 *     type: "object",
 *     properties: { a: { type: "number" }, b: { type: "number" } },
 *     required: ["a", "b"],
 *     additionalProperties: false,
 *   },
 *   effects: [],
 *   run: ({ a, b }) => ({ sum: a + b }),
 * });
 * const end = await new ToolSet().register(add).call({ id: "1", name: "add", arguments: '{"a":2,"b":3}' });
 * assert.equal(end.type, "output");
 * if (end.type === "output") assert.deepEqual(end.result.output, { sum: 5 });
 * ```
 *
 * @example Share a schema through remotes, registered from memory
 * ```ts
 * import { defineJsonTool, ToolSet } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * const point = {
 *   type: "object",
 *   properties: { x: { type: "number" }, y: { type: "number" } },
 *   required: ["x", "y"],
 * };
 * const move = defineJsonTool({
 *   name: "move",
 *   description: "Moves the cursor to a point.",
 *   inputSchema: {
 *     type: "object",
 *     properties: { to: { $ref: "https://example.com/schemas/point.json" } },
 *     required: ["to"],
 *   },
 *   remotes: { "https://example.com/schemas/point.json": point },
 *   effects: [],
 *   run: () => ({ moved: true }),
 * });
 * const tools = new ToolSet().register(move);
 * const ok = await tools.call({ id: "1", name: "move", arguments: '{"to":{"x":1,"y":2}}' });
 * assert.equal(ok.type, "output");
 * const bad = await tools.call({ id: "2", name: "move", arguments: '{"to":{"x":1}}' });
 * assert.equal(bad.type === "failed" && bad.failure.kind, "invalid_input");
 * ```
 */
export function defineJsonTool<Input = unknown>(
  options: DefineJsonToolOptions<Input>,
): DefinedTool {
  const name = typeof options?.name === "string" ? options.name : "a tool";
  if (typeof options?.run !== "function") {
    throw new InvalidSpecError(
      `Cannot define "${name}" as run must be a function`,
      { path: "/run" },
    );
  }
  const descriptor: ToolDescriptor = describeTool({
    ...metadataOf(options),
    inputSchema: options.inputSchema,
    ...(options.outputSchema === undefined ? {} : { outputSchema: options.outputSchema }),
  });
  const { remotes, patterns, formats, budget } = options;
  // The descriptor's schemas are its own frozen copies: read as they are.
  const input = compileSchemaApart(descriptor.inputSchema, {
    label: "inputSchema",
    remotes,
    patterns,
    formats,
    budget,
  }, true);
  const output = descriptor.outputSchema === undefined
    ? undefined
    : compileSchemaApart(descriptor.outputSchema, { label: "outputSchema", remotes, patterns, formats, budget }, true);
  return handlerTool({
    descriptor,
    warnings: Object.freeze(effectWarnings(descriptor.effects)),
    parseInput: parserFor(input),
    ...(output ? { parseOutput: parserFor(output) } : {}),
  }, options.run as Handler<unknown, unknown>);
}
