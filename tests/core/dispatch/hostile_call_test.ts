import assert from "node:assert/strict";
import { defineJsonTool, suspend, type SuspendedCall, type ToolEvent, ToolSet } from "../../../mod.ts";

function revoked(): Record<string, unknown> {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function throwing(field: string, base: Record<string, unknown> = {}): Record<string, unknown> {
  return Object.defineProperty({ ...base }, field, {
    enumerable: true,
    get: () => {
      throw new Error(`${field} getter`);
    },
  });
}

function trapping(trap: keyof ProxyHandler<object>, base: Record<string, unknown> = {}): Record<string, unknown> {
  return new Proxy(base, {
    [trap]: () => {
      throw new Error(`${trap} trap`);
    },
  });
}

let runs = 0;
const guarded = defineJsonTool({
  name: "guarded",
  description: "Counts its runs; parks its first call.",
  inputSchema: { type: "object" },
  effects: [],
  run: (_input, ctx) => {
    runs++;
    return ctx.resume === undefined ? suspend({ reason: "Confirm?", resumeSchema: { type: "object" } }) : {};
  },
});
const tools = new ToolSet().register(guarded);
const CALL = { id: "c1", name: "guarded", arguments: {} };
const parked = await tools.call(CALL);
assert.equal(parked.type, "suspended");
const RECORD = parked.type === "suspended" ? parked.suspended : undefined as never;

type Case = {
  readonly call?: unknown;
  readonly options?: unknown;
  readonly record?: unknown;
  readonly answer?: unknown;
};

const CALL_CASES: Record<string, Case> = {
  "the call is a revoked Proxy": { call: revoked() },
  "the call's id getter throws": { call: throwing("id", CALL) },
  "the call's name getter throws": { call: throwing("name", CALL) },
  "the call's arguments getter throws": { call: throwing("arguments", CALL) },
  "the call is a Proxy whose get trap throws": { call: trapping("get", CALL) },
  "the arguments are a Proxy whose getPrototypeOf trap throws": {
    call: { ...CALL, arguments: trapping("getPrototypeOf") },
  },
  "the arguments are a revoked Proxy": { call: { ...CALL, arguments: revoked() } },
  "the arguments are a Proxy whose ownKeys trap throws": { call: { ...CALL, arguments: trapping("ownKeys") } },
  "the arguments hold a getter that throws": { call: { ...CALL, arguments: throwing("path") } },
  "the projection's restore throws and its name getter throws": {
    options: {
      projection: throwing("name", {
        restore: () => {
          throw revoked();
        },
      }),
    },
  },
};

const OPTION_CASES: Record<string, Case> = {
  "the options are a revoked Proxy": { options: revoked() },
  "the options' signal getter throws": { options: throwing("signal") },
  "the options' timeoutMs getter throws": { options: throwing("timeoutMs") },
  "the options' projection getter throws": { options: throwing("projection") },
  "the options' extensions getter throws": { options: throwing("extensions") },
  "the options' approve getter throws": { options: throwing("approve") },
  "the options' onProgress getter throws": { options: throwing("onProgress") },
  "the options' idempotencyKey getter throws": { options: throwing("idempotencyKey") },
  "the options are a Proxy whose get trap throws": { options: trapping("get") },
  "the options are a Proxy whose has, get and ownKeys traps throw": {
    options: new Proxy({}, {
      has: () => {
        throw new Error("has trap");
      },
      get: () => {
        throw new Error("get trap");
      },
      ownKeys: () => {
        throw new Error("ownKeys trap");
      },
    }),
  },
  "the options' extensions are a Proxy whose ownKeys trap throws": { options: { extensions: trapping("ownKeys") } },
  "the options' timeoutMs cannot be turned into a string": {
    options: { timeoutMs: { toString: () => ({}), valueOf: () => ({}) } },
  },
};

const RECORD_CASES: Record<string, Case> = {
  "the record is a revoked Proxy": { record: revoked() },
  "the record's tool getter throws": { record: throwing("tool", RECORD as never) },
  "the record's input getter throws": { record: throwing("input", RECORD as never) },
  "the record is a Proxy whose ownKeys trap throws": { record: trapping("ownKeys", RECORD as never) },
  "the record is a Proxy whose get trap throws": { record: trapping("get", RECORD as never) },
  "the answer is a revoked Proxy": { answer: revoked() },
  "the answer holds a getter that throws": { answer: throwing("approved") },
};

type Method = "call" | "stream" | "resume" | "resumeStream";

async function collect(method: Method, c: Case): Promise<ToolEvent[]> {
  const call = (c.call ?? CALL) as never;
  const options = (c.options ?? {}) as never;
  const record = (c.record ?? RECORD) as SuspendedCall;
  const answer = "answer" in c ? c.answer : {};
  switch (method) {
    case "call":
      return [await tools.call(call, options)];
    case "resume":
      return [await tools.resume(record, answer, options)];
    case "stream":
    case "resumeStream": {
      const events: ToolEvent[] = [];
      const stream = method === "stream" ? tools.stream(call, options) : tools.resumeStream(record, answer, options);
      for await (const event of stream) events.push(event);
      return events;
    }
  }
}

const TABLE: [string, Case, readonly Method[]][] = [
  ...Object.entries(CALL_CASES).map(([what, c]) => [what, c, ["call", "stream"]] as [string, Case, Method[]]),
  ...Object.entries(OPTION_CASES).map((
    [what, c],
  ) => [what, c, ["call", "stream", "resume", "resumeStream"]] as [string, Case, Method[]]),
  ...Object.entries(RECORD_CASES).map(([what, c]) => [what, c, ["resume", "resumeStream"]] as [string, Case, Method[]]),
];

for (const [what, c, methods] of TABLE) {
  Deno.test(`ToolSet ends in exactly one failed terminal, the handler never run, when ${what}`, async () => {
    for (const method of methods) {
      const before = runs;
      let events: ToolEvent[];
      try {
        events = await collect(method, c);
      } catch (error) {
        assert.fail(`${method}() threw: ${error}`);
      }
      assert.equal(events.length, 1, `${method}() yielded ${events.length} events`);
      assert.equal(events[0].type, "failed", `${method}() ended in ${events[0].type}`);
      assert.equal(runs, before, `${method}() ran the handler`);
    }
  });
}
