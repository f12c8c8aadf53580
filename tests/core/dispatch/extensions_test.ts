// A call's extensions reach its handler as a private copy frozen through,
// bounded by the set's limits; what cannot be copied is handed on as it is.

import assert from "node:assert/strict";
import {
  type CallObserver,
  defineJsonTool,
  type JsonLimits,
  runBatch,
  suspend,
  type TerminalEvent,
  type ToolContext,
  ToolSet,
} from "../../../mod.ts";

/** Tries to change what the handler was given; says which changes went through. */
function tamper(ctx: ToolContext): string[] {
  const changed: string[] = [];
  const user = ctx.extensions.user as { role: string; groups: string[] };
  const changes: Record<string, () => unknown> = {
    "the top level": () => ((ctx.extensions as Record<string, unknown>).user = {}),
    "a nested object": () => (user.role = "admin"),
    "a nested array": () => user.groups.push("root"),
  };
  for (const [what, change] of Object.entries(changes)) {
    try {
      change();
      changed.push(what);
    } catch {
      // Frozen: the change is refused.
    }
  }
  return changed;
}

let runs = 0;
const probe = defineJsonTool({
  name: "probe",
  description: "Tries to change its extensions; parks when asked to.",
  inputSchema: { type: "object", properties: { park: { type: "boolean" } } },
  effects: [],
  run: (input: { park?: boolean }, ctx) => {
    runs++;
    if (input.park && ctx.resume === undefined) return suspend({ reason: "Go on?", resumeSchema: { type: "object" } });
    return { changed: tamper(ctx), user: ctx.extensions.user ?? null };
  },
});

const user = () => ({ role: "guest", groups: ["staff"] });
const untouched = { changed: [], user: user() };

function outputOf(end: TerminalEvent): unknown {
  return end.type === "output" ? end.result.output : end.type === "failed" ? end.failure.message : end.type;
}

Deno.test("a handler gets the call's extensions frozen through, and the caller's stay as they were", async () => {
  const extensions = { user: user() };
  const tools = new ToolSet().register(probe);
  for (const id of ["1", "2"]) {
    assert.deepEqual(outputOf(await tools.call({ id, name: "probe" }, { extensions })), untouched, `call ${id}`);
  }
  assert.deepEqual(extensions, { user: user() });
  assert.ok(!Object.isFrozen(extensions.user) && !Object.isFrozen(extensions.user.groups), "the caller's not frozen");
});

Deno.test("no call of a batch, and no resume, can change what another is handed", async () => {
  const extensions = { user: user() };
  const tools = new ToolSet().register(probe);
  const batch = await runBatch(tools, [{ id: "a", name: "probe" }, { id: "b", name: "probe" }], { extensions });
  const parked = await tools.call({ id: "p", name: "probe", arguments: { park: true } }, { extensions });
  assert.equal(parked.type, "suspended");
  const record = parked.type === "suspended" ? parked.suspended : undefined as never;
  const resumed = await tools.resume(record, {}, { extensions });
  const ends = [...batch.results.map((result) => result.terminal), resumed];
  assert.deepEqual(ends.map(outputOf), [untouched, untouched, untouched]);
  assert.deepEqual(extensions, { user: user() });
});

Deno.test("what cannot be copied (a class's instance, a function) is handed on as it is, and left unfrozen", async () => {
  class Tracer {
    spans = 0;
  }
  const tracer = new Tracer();
  const resource = new URL("https://tools.example/mcp");
  const log = (_line: string) => {};
  let seen: Readonly<Record<string, unknown>> = {};
  const look = defineJsonTool({
    name: "look",
    description: "Keeps its extensions.",
    inputSchema: { type: "object" },
    effects: [],
    run: (_input, ctx) => (seen = ctx.extensions, {}),
  });
  const extensions = { tracer, log, auth: { clientId: "ada", resource }, at: [tracer] };
  const end = await new ToolSet().register(look).call({ id: "1", name: "look" }, { extensions });
  assert.equal(end.type, "output");
  assert.ok(seen.tracer === tracer && seen.log === log);
  const auth = seen.auth as { clientId: string; resource: URL };
  assert.ok(auth !== extensions.auth && auth.resource === resource && (seen.at as unknown[])[0] === tracer);
  assert.ok(Object.isFrozen(seen) && Object.isFrozen(auth) && Object.isFrozen(seen.at));
  assert.ok(!Object.isFrozen(tracer) && !Object.isFrozen(resource) && !Object.isFrozen(log));
});

Deno.test("symbol-keyed extensions reach the handler, the host's and an observer's, copied as plain ones are", async () => {
  class Tracer {
    spans = 0;
  }
  const slot = Symbol("trace slot");
  const tracer = new Tracer();
  let seen: Readonly<Record<string | symbol, unknown>> = {};
  const look = defineJsonTool({
    name: "look",
    description: "Keeps its extensions.",
    inputSchema: { type: "object" },
    effects: [],
    run: (_input, ctx) => (seen = ctx.extensions, {}),
  });
  const added = Symbol("added");
  const observer: CallObserver = { callStarted: () => ({ [added]: "by the observer" }) };
  const hidden = Object.defineProperty({}, slot, { value: "not enumerable", enumerable: false });
  const extensions = { [slot]: tracer, user: { [slot]: ["staff"] }, hidden };
  const end = await new ToolSet({ observer }).register(look).call({ id: "1", name: "look" }, { extensions });
  assert.equal(end.type, "output");
  assert.equal(seen[slot], tracer);
  assert.equal(seen[added], "by the observer");
  const nested = (seen.user as Record<symbol, string[]>)[slot];
  assert.deepEqual(nested, ["staff"]);
  assert.ok(nested !== extensions.user[slot] && Object.isFrozen(nested), "a plain value under a symbol is copied");
  assert.deepEqual(Object.getOwnPropertySymbols(seen.hidden as object), [], "a property not enumerable is left out");
});

Deno.test("each property of the extensions is read once", async () => {
  let reads = 0;
  const extensions = {
    user: Object.defineProperty({ groups: ["staff"] }, "role", {
      enumerable: true,
      get: () => (reads++ === 0 ? "guest" : "admin"),
    }),
  };
  const end = await new ToolSet().register(probe).call({ id: "1", name: "probe" }, { extensions });
  assert.deepEqual(outputOf(end), untouched);
  assert.equal(reads, 1);
});

const cyclic: Record<string, unknown> = { user: user() };
(cyclic.user as Record<string, unknown>).self = cyclic.user;
let deep: Record<string, unknown> = {};
for (let i = 0; i < 100_000; i++) deep = { next: deep };

const REFUSED: Record<string, [extensions: object, message: RegExp, limits?: JsonLimits]> = {
  "a cycle": [cyclic, /extensions must not contain themselves: current value is a cycle at \/user\/self$/],
  "nesting 100,000 deep": [
    { deep },
    /extensions must nest at most 32 levels deep: current value is deeper at \/deep\//,
  ],
  "a million items": [
    { items: new Array(1_000_000).fill(0) },
    /extensions must take at most 262144 bytes as JSON: current value is over 1000\d+ bytes at \/items$/,
  ],
  "a string past the set's bytes": [
    { note: "x".repeat(100) },
    /extensions must take at most 64 bytes as JSON: current value is over 111 bytes at \/note$/,
    { maxBytes: 64, maxDepth: 8 },
  ],
  "more objects than the set takes": [
    { list: Array.from({ length: 10 }, () => ({})) },
    /extensions must hold at most 4 objects and arrays: current value is larger at \/list\/2$/,
    { maxBytes: 1024, maxDepth: 8, maxContainers: 4 },
  ],
};

for (const [what, [extensions, message, limits]] of Object.entries(REFUSED)) {
  Deno.test(`extensions holding ${what} fail the call with one typed failure, the handler never run`, async () => {
    const tools = new ToolSet(limits && { limits }).register(probe);
    const parked = await tools.call({ id: "p", name: "probe", arguments: { park: true } });
    assert.equal(parked.type, "suspended");
    const record = parked.type === "suspended" ? parked.suspended : undefined as never;
    const before = runs;
    const options = { extensions: extensions as Record<string, unknown> };
    const streamed = async (events: AsyncIterable<unknown>) => {
      const all = [];
      for await (const event of events) all.push(event);
      assert.equal(all.length, 1);
      return all[0] as TerminalEvent;
    };
    const ends = [
      await tools.call({ id: "1", name: "probe" }, options),
      await streamed(tools.stream({ id: "2", name: "probe" }, options)),
      await tools.resume(record, {}, options),
      (await runBatch(tools, [{ id: "3", name: "probe" }], options)).results[0].terminal,
    ];
    for (const end of ends) {
      assert.equal(end.type === "failed" && end.failure.kind, "contract");
      assert.match(end.type === "failed" ? end.failure.message : "", /^Cannot dispatch "(probe|the parked call)" as /);
      assert.match(end.type === "failed" ? end.failure.message : "", message);
    }
    assert.equal(runs, before);
  });
}

Deno.test("the extensions an observer adds are frozen through too, and ones past the limits are left out", async () => {
  const added = { user: user() };
  const observer: CallObserver = { callStarted: () => added };
  const tools = new ToolSet({ observer }).register(probe);
  for (const id of ["1", "2"]) {
    assert.deepEqual(outputOf(await tools.call({ id, name: "probe" })), untouched, `call ${id}`);
  }
  assert.deepEqual(added, { user: user() });
  const looping = new ToolSet({ observer: { callStarted: () => cyclic } }).register(probe);
  const end = await looping.call({ id: "3", name: "probe" }, { extensions: { user: user() } });
  assert.deepEqual(outputOf(end), untouched, "the call runs with the host's own extensions");
});
