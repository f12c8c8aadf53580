/**
 * The runtime conformance script: the public core exercised the way an
 * agent loop uses it, with no runtime-specific API. It imports the module
 * through the one specifier `@salvor/tools`, so the same file runs against
 * the TypeScript source (Deno) and the built bundle (Node.js, Bun, workerd,
 * Vercel's edge runtime). Printing and exit codes belong to the per-runtime
 * harnesses beside it.
 *
 * @module
 */

import {
  defineJsonTool,
  defineTool,
  type ExecutionEvent,
  HandlerError,
  RegistryError,
  RetryPolicy,
  suspend,
  type TerminalEvent,
  ToolSet,
} from "@salvor/tools";
import {
  compileSchema,
  describeTool,
  type DynTool,
  linearPatterns,
  SchemaBudgetError,
  toolFailure,
} from "@salvor/tools/dyn";
import * as v from "valibot";

/** What a harness prints, and whether it must fail the run. */
export interface ConformanceReport {
  /** How many checks did not hold. */
  readonly failed: number;
  /** One line a check, then the closing `<runtime>: N passed, N failed` line. */
  readonly lines: readonly string[];
}

interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly detail?: string;
}

interface Check {
  readonly name: string;
  readonly run: () => Promise<void> | void;
}

/** A check that runs longer than this failed: a hang must never stop the report. */
const CHECK_DEADLINE_MS = 10_000;

function fail(message: string): never {
  throw new Error(message);
}

function expectEqual(actual: unknown, expected: unknown, what: string): void {
  const seen = JSON.stringify(actual);
  const wanted = JSON.stringify(expected);
  if (seen !== wanted) fail(`${what}: expected ${wanted}, got ${seen}`);
}

function expectFailure(end: TerminalEvent, kind: string) {
  if (end.type !== "failed") fail(`expected a ${kind} failure, got a ${end.type} terminal`);
  expectEqual(end.failure.kind, kind, "failure kind");
  return end.failure;
}

function expectSpentSteps(validate: () => unknown): void {
  try {
    validate();
  } catch (error) {
    if (error instanceof SchemaBudgetError && error.spent === "steps") return;
    fail(`expected the steps spent, got ${error}`);
  }
  fail("expected the steps spent, got a verdict");
}

function expectOutput(end: TerminalEvent): unknown {
  if (end.type !== "output") {
    fail(`expected an output, got ${end.type === "failed" ? `${end.failure.kind}: ${end.failure.message}` : end.type}`);
  }
  return end.result.output;
}

/** Builds a fresh set of tools for each check, so no check sees another's state. */
function fixture() {
  const runs = { readFile: 0 };
  const readFile = defineTool({
    name: "read_file",
    description: "Read a UTF-8 text file.",
    inputSchema: v.object({ path: v.pipe(v.string(), v.trim(), v.minLength(1)) }),
    outputSchema: v.object({ text: v.string() }),
    effects: ["fs.read"],
    run: (input) => {
      runs.readFile++;
      return { text: `contents of ${input.path}` };
    },
  });
  const add = defineJsonTool<{ a: number; b: number }>({
    name: "add",
    description: "Add two numbers.",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
      additionalProperties: false,
    },
    outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
    effects: [],
    run: ({ a, b }) => ({ sum: a + b }),
  });
  const writeFile = defineTool({
    name: "write_file",
    description: "Write a file, after a person confirms.",
    inputSchema: v.object({ path: v.string(), text: v.string() }),
    effects: ["fs.write"],
    run: (input, ctx) => {
      if (ctx.resume === undefined) {
        return suspend({
          reason: `Overwrite ${input.path}?`,
          resumeSchema: v.object({ approved: v.boolean() }),
          payload: { path: input.path },
        });
      }
      return { written: (ctx.resume as { approved: boolean }).approved ? input.text.length : 0 };
    },
  });
  const count = defineJsonTool({
    name: "count",
    description: "Count to three, reporting progress.",
    inputSchema: { type: "object" },
    effects: [],
    run: async (_input, ctx) => {
      for (let step = 1; step <= 3; step++) {
        await Promise.resolve();
        ctx.progress({ progress: step, total: 3, message: `step ${step}` });
      }
      return { counted: 3 };
    },
  });
  const signals: AbortSignal[] = [];
  const fetchPage = defineJsonTool({
    name: "fetch_page",
    description: "Fetch a page; never answers, so only a timeout or cancellation ends it.",
    inputSchema: { type: "object" },
    effects: ["network.request"],
    run: (_input, ctx) => {
      signals.push(ctx.signal);
      return new Promise((_resolve, reject) => {
        ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true });
      });
    },
  });
  const flaky = defineJsonTool({
    name: "flaky",
    description: "Fails with a message for the model.",
    inputSchema: { type: "object" },
    effects: ["external.read"],
    run: () => {
      throw new HandlerError("upstream answered 503", {
        code: "unavailable",
        retryable: true,
        modelText: "The service is busy; try again shortly.",
      });
    },
  });
  const tools = new ToolSet().register(readFile, add, writeFile, count, fetchPage, flaky);
  return { tools, runs, signals, readFile, add, writeFile };
}

const checks: readonly Check[] = [
  {
    name: "defineTool derives a JSON Schema object schema from Valibot",
    run: () => {
      const { readFile } = fixture();
      const schema = readFile.descriptor.inputSchema as Record<string, unknown>;
      expectEqual(schema.type, "object", "type");
      expectEqual(schema.required, ["path"], "required");
      expectEqual((schema.properties as Record<string, unknown>).path, { type: "string", minLength: 1 }, "path");
      expectEqual(readFile.warnings.length, 1, "warnings (the trim is not in the schema)");
    },
  },
  {
    name: "register() is atomic: a batch with a duplicate name adds nothing",
    run: () => {
      const { add } = fixture();
      const tools = new ToolSet();
      let thrown: unknown;
      try {
        tools.register(add, add);
      } catch (error) {
        thrown = error;
      }
      if (!(thrown instanceof RegistryError)) fail(`expected a RegistryError, got ${String(thrown)}`);
      expectEqual(thrown.name, "RegistryError", "error name");
      expectEqual(tools.size, 0, "size");
    },
  },
  {
    name: "descriptors() lists every tool in name order with its effects",
    run: () => {
      const descriptors = fixture().tools.descriptors();
      expectEqual(
        descriptors.map((d) => d.name),
        ["add", "count", "fetch_page", "flaky", "read_file", "write_file"],
        "names",
      );
      expectEqual(descriptors.find((d) => d.name === "write_file")?.effects, ["fs.write"], "effects");
      expectEqual(JSON.parse(JSON.stringify(descriptors)), descriptors, "descriptors as JSON");
    },
  },
  {
    name: "call() runs a typed tool from JSON string arguments, transforms applied",
    run: async () => {
      const end = await fixture().tools.call({ id: "c1", name: "read_file", arguments: '{"path":"  a.txt "}' });
      expectEqual(expectOutput(end), { text: "contents of a.txt" }, "output");
    },
  },
  {
    name: "call() runs a raw JSON Schema tool and checks its output",
    run: async () => {
      const end = await fixture().tools.call({ id: "c1", name: "add", arguments: '{"a":2,"b":3}' });
      expectEqual(expectOutput(end), { sum: 5 }, "output");
      if (end.type === "output") expectEqual(end.result.content, [{ type: "text", text: '{"sum":5}' }], "content");
    },
  },
  {
    name: "compileSchema() runs a raw JSON Schema on the compiled engine (no eval) with sorted diagnostics",
    run: () => {
      const schema = compileSchema({
        type: "object",
        properties: { a: { type: "number" }, tags: { type: "array", items: { type: "string", pattern: "^[a-z]+$" } } },
        required: ["a"],
        additionalProperties: false,
      });
      expectEqual(schema.engine, "compiled", "engine");
      expectEqual(schema.validate({ a: 1, tags: ["ok"] }), { ok: true }, "a valid value");
      expectEqual(schema.validate({ tags: ["Bad", 2], extra: true }), {
        ok: false,
        diagnostics: [
          { path: "/a", keyword: "required", message: 'Missing required property "a".' },
          { path: "/extra", keyword: "additionalProperties", message: 'Property "extra" is not allowed.' },
          { path: "/tags/0", keyword: "pattern", message: 'Expected a string matching the pattern "^[a-z]+$".' },
          { path: "/tags/1", keyword: "type", message: "Expected a string but received an integer." },
        ],
        omitted: 0,
      }, "diagnostics");
      // The clock for the time budget (which stands still in workerd) is read every 16,384 steps, the first reading
      // only noting the time. 12,000 items take two steps each: one reading, too few for a second that compares, so
      // no machine is too slow for it. The two step budgets pin that count.
      const items = { type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } };
      const long = new Array(12_000).fill("a");
      expectEqual(compileSchema(items).validate(long), { ok: true }, "12,000 items, the clock read once");
      expectSpentSteps(() => compileSchema(items, { budget: { stepsPerValue: 16_384 } }).validate(long));
      const short = compileSchema(items, { budget: { stepsPerValue: 32_767 } });
      expectEqual(short.validate(long), { ok: true }, "12,000 items within 32,767 steps");
      // The linear-time engine answers a pattern that backtracks exponentially in RegExp at once.
      const untrusted = compileSchema({ type: "string", pattern: "^(a+)+$" }, { patterns: linearPatterns });
      expectEqual(untrusted.engine, "compiled", "untrusted engine");
      expectEqual(untrusted.validate(`${"a".repeat(40)}!`).ok, false, "^(a+)+$ on 40 characters");
    },
  },
  {
    name: "call() runs a host's own pattern that could backtrack for long on re2js, which loads apart from the core",
    run: async () => {
      const tools = new ToolSet().register(defineJsonTool({
        name: "size",
        description: "Takes a CSS size.",
        inputSchema: { type: "object", properties: { size: { type: "string", pattern: "\\d+px" } } },
        effects: [],
        run: () => ({}),
      }));
      expectOutput(await tools.call({ id: "c1", name: "size", arguments: { size: "12px" } }));
      // About 1 s on the built-in RegExp (200,000 digits took 100 s); a few milliseconds on re2js, even before it is
      // optimized.
      const digits = { size: "1".repeat(20_000) };
      expectFailure(await tools.call({ id: "c2", name: "size", arguments: digits }), "invalid_input");
    },
  },
  {
    name: "resume() runs the pattern of a record that is not sealed on re2js, which loads apart from the core",
    run: async () => {
      const tools = new ToolSet().register(defineJsonTool({
        name: "code",
        description: "Asks a person for a code.",
        inputSchema: { type: "object" },
        effects: [],
        run: (_input, ctx) =>
          ctx.resume === undefined
            ? suspend({ reason: "Which code?", resumeSchema: { type: "string", pattern: "^(a+)+$" } })
            : { code: ctx.resume },
      }));
      const parked = await tools.call({ id: "c1", name: "code", arguments: {} });
      if (parked.type !== "suspended") fail(`expected a suspended call, got a ${parked.type} terminal`);
      const record = JSON.parse(JSON.stringify(parked.suspended));
      // Hours on the built-in RegExp; at once on re2js.
      expectFailure(await tools.resume(record, `${"a".repeat(40)}!`), "invalid_input");
      expectEqual(expectOutput(await tools.resume(record, "aaaa")), { code: "aaaa" }, "resumed output");
    },
  },
  {
    name: "call() runs a draft-04 schema on the fallback validator, which loads apart from the core on first need",
    run: async () => {
      const inputSchema = {
        $schema: "http://json-schema.org/draft-04/schema#",
        // Draft-04 ignores `$id`, which draft-07 reads: the schema is not compiled as draft-07, and runs on the fallback.
        $id: "urn:below-5",
        type: "object",
        properties: { n: { type: "number", maximum: 5, exclusiveMaximum: true } },
        required: ["n"],
      };
      const tools = new ToolSet().register(
        defineJsonTool({ name: "below_5", description: "Takes n below 5.", inputSchema, effects: [], run: () => ({}) }),
      );
      expectFailure(await tools.call({ id: "c1", name: "below_5", arguments: { n: 5 } }), "invalid_input");
      expectOutput(await tools.call({ id: "c2", name: "below_5", arguments: { n: 4 } }));
      const schema = compileSchema(inputSchema);
      expectEqual(schema.engine, "fallback", "engine");
      await schema.loading;
      expectEqual(schema.validate({ n: 4.5 }), { ok: true }, "a valid value");
      expectEqual(schema.validate({ n: 5 }).ok, false, "5 against exclusiveMaximum");
    },
  },
  {
    name:
      "call() asserts formats (a date, a host name's A-labels) with the format scanners, which load apart on first need",
    run: async () => {
      const tools = new ToolSet().register(defineJsonTool({
        name: "when",
        description: "Takes a date.",
        inputSchema: {
          type: "object",
          properties: { at: { type: "string", format: "date" }, host: { type: "string", format: "hostname" } },
          required: ["at"],
        },
        formats: "assert",
        effects: [],
        run: () => ({}),
      }));
      expectFailure(await tools.call({ id: "c1", name: "when", arguments: { at: "2026-02-30" } }), "invalid_input");
      expectOutput(await tools.call({ id: "c2", name: "when", arguments: { at: "2026-02-28" } }));
      // An A-label is decoded and held to IDNA2008, with the runtime's own Unicode data.
      const host = (name: string) => ({ at: "2026-02-28", host: `${name}.example` });
      expectOutput(await tools.call({ id: "c3", name: "when", arguments: host("xn--bcher-kva") }));
      expectOutput(await tools.call({ id: "c4", name: "when", arguments: host("xn--11b2ezcw70k") }));
      expectFailure(await tools.call({ id: "c5", name: "when", arguments: host("xn--l-fda") }), "invalid_input");
      expectFailure(await tools.call({ id: "c6", name: "when", arguments: host("xn--02b508i") }), "invalid_input");
    },
  },
  {
    name: "call() reports invalid_input with diagnostics and never runs the handler",
    run: async () => {
      const { tools, runs } = fixture();
      const failure = expectFailure(
        await tools.call({ id: "c1", name: "read_file", arguments: '{"path":""}' }),
        "invalid_input",
      );
      expectEqual(failure.diagnostics?.[0]?.path, "/path", "diagnostic path");
      const extra = expectFailure(
        await tools.call({ id: "c2", name: "add", arguments: '{"a":1,"b":2,"c":3}' }),
        "invalid_input",
      );
      expectEqual(extra.diagnostics?.length, 1, "diagnostics for an extra property");
      expectEqual(runs.readFile, 0, "handler runs");
    },
  },
  {
    name: "call() reports invalid_input for malformed JSON and a 300 KiB payload",
    run: async () => {
      const { tools } = fixture();
      expectFailure(await tools.call({ id: "c1", name: "add", arguments: '{"a":1,' }), "invalid_input");
      const big = JSON.stringify({ path: "x".repeat(300 * 1024) });
      expectFailure(await tools.call({ id: "c2", name: "read_file", arguments: big }), "invalid_input");
    },
  },
  {
    name: "call() reports not_found for an unknown tool, with text for the model",
    run: async () => {
      const failure = expectFailure(
        await fixture().tools.call({ id: "c1", name: "rm_rf", arguments: "{}" }),
        "not_found",
      );
      if (!failure.modelText.includes("rm_rf")) fail(`model text does not name the tool: ${failure.modelText}`);
    },
  },
  {
    name: "stream() yields progress events, then exactly one output terminal",
    run: async () => {
      const types: string[] = [];
      const steps: unknown[] = [];
      for await (const event of fixture().tools.stream({ id: "c1", name: "count", arguments: "" })) {
        types.push(event.type);
        if (event.type === "progress") steps.push(event.progress);
      }
      expectEqual(types, ["progress", "progress", "progress", "output"], "event types");
      expectEqual(steps, [1, 2, 3], "progress values");
    },
  },
  {
    name: "call() times out a hung tool, aborts its signal and marks a write uncertain",
    run: async () => {
      const { tools, signals } = fixture();
      const failure = expectFailure(
        await tools.call({ id: "c1", name: "fetch_page", arguments: "{}" }, { timeoutMs: 20 }),
        "timeout",
      );
      expectEqual(failure.uncertain, true, "uncertain");
      expectEqual(signals.map((signal) => signal.aborted), [true], "handler signal aborted");
    },
  },
  {
    name: "call() ends as cancelled when the caller aborts",
    run: async () => {
      const controller = new AbortController();
      const pending = fixture().tools.call({ id: "c1", name: "fetch_page" }, { signal: controller.signal });
      controller.abort();
      expectFailure(await pending, "cancelled");
    },
  },
  {
    name: "a suspended call survives JSON and resumes in a fresh ToolSet",
    run: async () => {
      const parked = await fixture().tools.call({
        id: "c1",
        name: "write_file",
        arguments: '{"path":"notes.txt","text":"hello"}',
      });
      if (parked.type !== "suspended") fail(`expected a suspension, got ${parked.type}`);
      const record = JSON.parse(JSON.stringify(parked.suspended));
      expectEqual(record.payload, { path: "notes.txt" }, "payload");
      const later = fixture().tools;
      const refused = await later.resume(record, { approved: "yes" });
      expectFailure(refused, "invalid_input");
      expectEqual(expectOutput(await later.resume(record, { approved: true })), { written: 5 }, "output");
    },
  },
  {
    name: "a sealed record resumes once, and a forged 1 MB one is refused while timers keep running",
    run: async () => {
      const seal = { key: { id: "k1", secret: "0123456789abcdef0123456789abcdef" } };
      const tools = new ToolSet({ seal }).register(fixture().writeFile);
      const parked = await tools.call({
        id: "c1",
        name: "write_file",
        arguments: { path: "notes.txt", text: "hello" },
      });
      if (parked.type !== "suspended") fail(`expected a suspension, got ${parked.type}`);
      const record = JSON.parse(JSON.stringify(parked.suspended));
      // A valid stamp on a padded body: read in steps that yield, so a timer set before it runs during it.
      const padding = Array.from({ length: 40_000 }, (_, i) => ({ k: i, s: "abcdefgh" }));
      const forged = { ...record, payload: { padding } };
      let ticks = 0;
      const timer = setInterval(() => ticks++, 1);
      const refused = await tools.resume(forged, { approved: true });
      clearInterval(timer);
      expectFailure(refused, "invalid_input");
      if (!/bad_mac/.test(refused.type === "failed" ? refused.failure.message : "")) {
        fail("the forged record was not refused for its MAC");
      }
      if (ticks === 0) fail("no timer ran while the forged record was read");
      expectEqual(expectOutput(await tools.resume(record, { approved: true })), { written: 5 }, "output");
      expectFailure(await tools.resume(record, { approved: true }), "invalid_input");
    },
  },
  {
    name: "a HandlerError becomes a handler failure that keeps its model text",
    run: async () => {
      const failure = expectFailure(await fixture().tools.call({ id: "c1", name: "flaky" }), "handler");
      expectEqual(failure.modelText, "The service is busy; try again shortly.", "model text");
      expectEqual(failure.retryable, true, "retryable");
    },
  },
  {
    name: "a tool that breaks the stream contract ends as a contract failure",
    run: async () => {
      const twice: DynTool = {
        descriptor: describeTool({
          name: "twice",
          description: "Answers twice.",
          inputSchema: { type: "object" },
          effects: [],
        }),
        async *execute(): AsyncGenerator<ExecutionEvent> {
          yield { type: "output", result: { content: [] } };
          yield { type: "output", result: { content: [] } };
        },
      };
      const end = await new ToolSet().register(twice).call({ id: "c1", name: "twice" });
      expectFailure(end, "contract");
    },
  },
  {
    name: "RetryPolicy retries a failed read with backoff and never a timed-out write",
    run: async () => {
      const { tools } = fixture();
      const policy = new RetryPolicy({ baseDelayMs: 100, random: () => 0.5 });
      const read = tools.get("flaky")!.descriptor;
      const flaky = expectFailure(await tools.call({ id: "c1", name: "flaky" }), "handler");
      expectEqual(policy.decide(read, flaky, 1), { retry: true, delayMs: 75, sameIdempotencyKey: false }, "first");
      expectEqual(policy.decide(read, flaky, 3).retry, false, "after max attempts");
      const write = tools.get("write_file")!.descriptor;
      const timedOut = toolFailure("timeout", "timed out", { uncertain: true });
      expectEqual(policy.decide(write, timedOut, 1).retry, false, "write");
    },
  },
  {
    name: "plan() runs reads together, a write alone, and refuses unknown tools",
    run: () => {
      const plan = fixture().tools.plan([
        { id: "1", name: "read_file" },
        { id: "2", name: "add" },
        { id: "3", name: "write_file" },
        { id: "4", name: "read_file" },
        { id: "5", name: "nope" },
      ]);
      expectEqual(plan.waves.map((wave) => wave.map((call) => call.id)), [["1", "2"], ["3"], ["4"]], "waves");
      expectEqual(plan.refused.map((refused) => [refused.call.id, refused.reason]), [["5", "not_found"]], "refused");
    },
  },
];

async function runCheck(check: Check): Promise<CheckResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_DEADLINE_MS} ms`)), CHECK_DEADLINE_MS);
  });
  try {
    await Promise.race([Promise.resolve().then(check.run), deadline]);
    return { name: check.name, ok: true };
  } catch (error) {
    return { name: check.name, ok: false, detail: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs every check in order and reports each one.
 *
 * @param runtime The runtime's name, printed on the closing line.
 * @returns The results and the lines to print.
 */
export async function runConformance(runtime: string): Promise<ConformanceReport> {
  const results: CheckResult[] = [];
  for (const check of checks) results.push(await runCheck(check));
  const failed = results.filter((result) => !result.ok).length;
  const passed = results.length - failed;
  return {
    failed,
    lines: [
      ...results.map((result) => result.ok ? `held    ${result.name}` : `FAILED  ${result.name}: ${result.detail}`),
      `${runtime}: ${passed} passed, ${failed} failed`,
    ],
  };
}

/**
 * Runs every check and answers with the report as plain text: status 200
 * when all held, 500 otherwise. For runtimes that run the checks when fetched.
 *
 * @param runtime The runtime's name, printed on the closing line.
 * @returns The response to send.
 */
export async function conformanceResponse(runtime: string): Promise<Response> {
  const report = await runConformance(runtime);
  return new Response(`${report.lines.join("\n")}\n`, {
    status: report.failed === 0 ? 200 : 500,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}
