import assert from "node:assert/strict";
import { fc } from "../../dev_deps.ts";
import { defineJsonTool, suspend, type ToolEvent, ToolSet } from "../../../mod.ts";

// Hostile values: deep, wide, Proxies, getters that throw or change, huge
// strings, non-JSON values and prototype keys, in any place a host or model
// can put one.
function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function throwingGetter(key: string): object {
  return Object.defineProperty({}, key, {
    enumerable: true,
    get: () => {
      throw new Error("getter");
    },
  });
}

function shiftingGetter(key: string, values: readonly unknown[]): object {
  let reads = 0;
  return Object.defineProperty({}, key, { enumerable: true, get: () => values[reads++ % values.length] });
}

function deep(depth: number): unknown {
  let value: unknown = {};
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

const key = fc.constantFrom("__proto__", "constructor", "prototype", "toString", "polluted", "id", "name", "a");
const leaf = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(undefined, NaN, Infinity, 1n, Symbol("s"), () => {}, new Date(0), new Map()),
  fc.constant("x".repeat(300_000)),
  fc.constant("\ud800"),
);
/** A recipe for a hostile value: built fresh inside the property, so that fast-check never reads one itself. */
type Make = () => unknown;
const hostile: fc.Arbitrary<Make> = fc.letrec<{ value: Make }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    leaf.map((value) => () => value),
    fc.constant(revoked),
    key.map((k) => () => throwingGetter(k)),
    fc.tuple(key, fc.array(leaf, { minLength: 1, maxLength: 3 })).map(([k, values]) => () => shiftingGetter(k, values)),
    fc.integer({ min: 30, max: 5_000 }).map((n) => () => deep(n)),
    fc.integer({ min: 1_000, max: 20_000 }).map((n) => () => Array.from({ length: n }, (_, i) => i)),
    fc.array(fc.tuple(key, tie("value")), { maxLength: 4 }).map((entries) => () =>
      // defineProperty makes own "__proto__" keys, as JSON.parse does.
      entries.reduce(
        (into, [k, make]) => Object.defineProperty(into, k, { value: make(), enumerable: true, configurable: true }),
        {} as object,
      )
    ),
    fc.array(tie("value"), { maxLength: 3 }).map((items) => () => items.map((make) => make())),
  ),
})).value;

let runs = 0;
const tool = defineJsonTool({
  name: "echo",
  description: "Echoes; parks when asked to.",
  inputSchema: { type: "object", properties: { park: { type: "boolean" } } },
  effects: ["fs.write"],
  run: (input: { park?: boolean }, ctx) => {
    runs++;
    return input.park && ctx.resume === undefined ? suspend({ reason: "Go?", resumeSchema: { type: "object" } }) : {};
  },
});

const REFUSALS = new Set(["invalid_input", "not_found", "contract", "policy_required"]);
const text = fc.string().map((value) => () => value);
const call: fc.Arbitrary<Make> = fc.oneof(
  hostile,
  fc.tuple(fc.oneof(text, hostile), fc.oneof(fc.constant(() => "echo"), hostile), hostile).map(
    ([id, name, args]) => () => ({
      id: id(),
      name: name(),
      arguments: args(),
    }),
  ),
  fc.tuple(fc.oneof(hostile, fc.jsonValue().map((value) => () => JSON.stringify(value)))).map(([args]) => () => ({
    id: "c",
    name: "echo",
    arguments: args(),
  })),
);
const options: fc.Arbitrary<Make> = fc.oneof(
  fc.constant(() => undefined),
  hostile,
  fc.tuple(hostile, hostile).map(([timeoutMs, signal]) => () => ({ timeoutMs: timeoutMs(), signal: signal() })),
);
const approve = fc.constantFrom<(() => unknown) | undefined>(
  undefined,
  () => true,
  () => "suspend",
  () => {
    throw revoked();
  },
);

async function eventsOf(run: () => AsyncIterable<ToolEvent> | Promise<ToolEvent>): Promise<ToolEvent[]> {
  const started = run();
  if (started instanceof Promise) return [await started];
  const events: ToolEvent[] = [];
  for await (const event of started) events.push(event);
  return events;
}

function assertOneTerminal(events: readonly ToolEvent[], before: number): void {
  const terminals = events.filter((event) => event.type !== "progress");
  assert.equal(terminals.length, 1);
  assert.equal(events.at(-1), terminals[0]);
  const end = terminals[0];
  if (end.type === "failed" && REFUSALS.has(end.failure.kind)) assert.equal(runs, before, end.failure.message);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
}

Deno.test("ToolSet ends every hostile call, stream and resume in exactly one terminal, never running the handler on a refusal", async () => {
  const parked = await new ToolSet({ approve: () => "suspend" }).register(tool).call({
    id: "p",
    name: "echo",
    arguments: { park: true },
  });
  assert.equal(parked.type, "suspended");
  const record = parked.type === "suspended" ? parked.suspended : undefined as never;
  const recordLike: fc.Arbitrary<Make> = fc.oneof(
    hostile,
    fc.tuple(fc.constantFrom(...Object.keys(record)), hostile).map(([field, value]) => () => ({
      ...record,
      [field]: value(),
    })),
  );
  await fc.assert(
    fc.asyncProperty(call, options, approve, recordLike, hostile, async (c, o, gate, r, answer) => {
      const tools = new ToolSet(gate ? { approve: gate as never } : {}).register(tool);
      for (
        const run of [
          () => tools.call(c() as never, o() as never),
          () => tools.stream(c() as never, o() as never),
          () => tools.resume(r() as never, answer(), o() as never),
          () => tools.resumeStream(r() as never, answer(), o() as never),
        ]
      ) {
        const before = runs;
        assertOneTerminal(await eventsOf(run), before);
      }
    }),
    { numRuns: 300 },
  );
});
