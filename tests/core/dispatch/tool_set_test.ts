import assert from "node:assert/strict";
import * as v from "valibot";
import {
  defineJsonTool,
  defineTool,
  type Diagnostic,
  HandlerError,
  InvalidSpecError,
  RegistryError,
  type TerminalEvent,
  type ToolDescriptor,
  type ToolFailure,
  ToolSet,
} from "../../../mod.ts";
import type { DynTool } from "../../../dyn.ts";

function failureOf(end: TerminalEvent): ToolFailure {
  assert.equal(end.type, "failed", `expected a failure, got ${JSON.stringify(end)}`);
  return (end as Extract<TerminalEvent, { type: "failed" }>).failure;
}

function outputOf(end: TerminalEvent): unknown {
  assert.equal(end.type, "output", `expected an output, got ${JSON.stringify(end)}`);
  return (end as Extract<TerminalEvent, { type: "output" }>).result.output;
}

interface Spy {
  readonly label: string;
  readonly tools: ToolSet;
  /** Every input the handler was called with. */
  readonly received: unknown[];
}

/**
 * The same strict contract twice: as a raw JSON Schema tool and as a typed
 * Valibot tool. Each handler records what reaches it.
 */
function spies(): Spy[] {
  const json: unknown[] = [];
  const typed: unknown[] = [];
  const jsonTool = defineJsonTool({
    name: "save_note",
    description: "Saves a note.",
    inputSchema: {
      type: "object",
      properties: { title: { type: "string" }, count: { type: "integer" } },
      required: ["title"],
      additionalProperties: false,
    },
    effects: [],
    run: (input) => {
      json.push(input);
      return { saved: true };
    },
  });
  const typedTool = defineTool({
    name: "save_note",
    description: "Saves a note.",
    inputSchema: v.strictObject({ title: v.string(), count: v.optional(v.pipe(v.number(), v.integer())) }),
    effects: [],
    run: (input) => {
      typed.push(input);
      return { saved: true };
    },
  });
  return [
    { label: "JSON tool", tools: new ToolSet().register(jsonTool), received: json },
    { label: "typed tool", tools: new ToolSet().register(typedTool), received: typed },
  ];
}

/**
 * Calls both spies with the arguments and asserts an `invalid_input`
 * failure with a diagnostic of the keyword (at the path, when given), and
 * that no handler ran.
 */
async function assertRefused(
  args: unknown,
  expected: { keyword: string; path?: string },
): Promise<readonly Diagnostic[][]> {
  const all: Diagnostic[][] = [];
  for (const spy of spies()) {
    const end = await spy.tools.call({ id: "call_1", name: "save_note", arguments: args });
    const failure = failureOf(end);
    assert.equal(failure.kind, "invalid_input", spy.label);
    const diagnostics = [...(failure.diagnostics ?? [])];
    assert.ok(
      diagnostics.some((d) =>
        d.keyword === expected.keyword && (expected.path === undefined || d.path === expected.path)
      ),
      `${spy.label}: no ${expected.keyword} diagnostic at ${expected.path} in ${JSON.stringify(diagnostics)}`,
    );
    assert.deepEqual(spy.received, [], `${spy.label}: the handler ran`);
    all.push(diagnostics);
  }
  return all;
}

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

function permissive(received: unknown[]): ToolSet {
  return new ToolSet().register(defineJsonTool({
    name: "echo",
    description: "Echoes its arguments.",
    inputSchema: { type: "object" },
    effects: [],
    run: (input) => {
      received.push(input);
      return { ok: true };
    },
  }));
}

Deno.test("ToolSet.call() hands a typed tool's handler the typed, transformed input", async () => {
  const received: unknown[] = [];
  const tool = defineTool({
    name: "tag_note",
    description: "Tags a note.",
    inputSchema: v.object({
      title: v.pipe(v.string(), v.trim(), v.toUpperCase()),
      tags: v.pipe(v.array(v.string()), v.transform((tags) => new Set(tags))),
      limit: v.optional(v.number(), 10),
    }),
    effects: [],
    run: (input) => {
      received.push(input);
      return { size: input.tags.size, limit: input.limit };
    },
  });
  const end = await new ToolSet().register(tool).call({
    id: "call_1",
    name: "tag_note",
    arguments: '{"title":"  hello ","tags":["a","b","a"]}',
  });
  assert.deepEqual(outputOf(end), { size: 2, limit: 10 });
  assert.deepEqual(received, [{ title: "HELLO", tags: new Set(["a", "b"]), limit: 10 }]);
});

Deno.test("ToolSet.call() never mutates the caller's argument object, even when the handler mutates its input", async () => {
  const args = { title: "  hello ", tags: ["b", "a"], meta: { pinned: true } };
  const before = structuredClone(args);
  const typedReceived: Record<string, unknown>[] = [];
  const typed = defineTool({
    name: "typed_note",
    description: "Sorts tags.",
    inputSchema: v.object({
      title: v.pipe(v.string(), v.trim()),
      tags: v.array(v.string()),
      meta: v.object({ pinned: v.boolean() }),
    }),
    effects: [],
    run: (input) => {
      typedReceived.push(input);
      input.tags.sort().push("c");
      input.meta.pinned = false;
      return { ok: true };
    },
  });
  const jsonReceived: Record<string, unknown>[] = [];
  const raw = defineJsonTool<Record<string, unknown>>({
    name: "raw_note",
    description: "Clears its input.",
    inputSchema: { type: "object" },
    effects: [],
    run: (input) => {
      jsonReceived.push(input);
      (input.tags as string[]).length = 0;
      delete input.title;
      (input.meta as Record<string, unknown>).pinned = "changed";
      return { ok: true };
    },
  });
  const tools = new ToolSet().register(typed, raw);
  outputOf(await tools.call({ id: "1", name: "typed_note", arguments: args }));
  outputOf(await tools.call({ id: "2", name: "raw_note", arguments: args }));
  assert.deepEqual(args, before);
  assert.notEqual(typedReceived[0].tags, args.tags);
  assert.notEqual(jsonReceived[0].meta, args.meta);
});

Deno.test("ToolSet.call() accepts a deep-frozen argument object and transforms a copy of it", async () => {
  const args = Object.freeze({ title: " x ", tags: Object.freeze(["a"]) });
  const tool = defineTool({
    name: "frozen",
    description: "Trims.",
    inputSchema: v.object({ title: v.pipe(v.string(), v.trim()), tags: v.array(v.string()) }),
    effects: [],
    run: (input) => {
      input.tags.push("b");
      return { title: input.title, tags: input.tags };
    },
  });
  const end = await new ToolSet().register(tool).call({ id: "1", name: "frozen", arguments: args });
  assert.deepEqual(outputOf(end), { title: "x", tags: ["a", "b"] });
  assert.deepEqual(args, { title: " x ", tags: ["a"] });
});

Deno.test("ToolSet.call() reports invalid_input for arguments that are not JSON, before any handler runs", async () => {
  for (const text of ['{"title":', "{title: 'x'}", "undefined", "NaN", '{"title":"x",}', "\u0000"]) {
    const [diagnostics] = await assertRefused(text, { keyword: "json", path: "" });
    assert.match(diagnostics[0].message, /not valid JSON/);
  }
});

Deno.test("ToolSet.call() reports invalid_input for JSON that is not an object, before any handler runs", async () => {
  for (const text of ["[]", '[{"title":"x"}]', '"title"', "42", "true", "null"]) {
    const [diagnostics] = await assertRefused(text, { keyword: "type", path: "" });
    assert.match(diagnostics[0].message, /must be a JSON object/);
  }
  for (const value of [[{ title: "x" }], 42, true]) {
    await assertRefused(value, { keyword: "type", path: "" });
  }
});

Deno.test("ToolSet.call() reads an empty string, null and undefined as {} and then reports the missing required field", async () => {
  for (const args of ["", "   ", null, undefined]) {
    await assertRefused(args, { keyword: "required", path: "/title" });
  }
  const received: unknown[] = [];
  const tools = permissive(received);
  for (const args of ["", "  \n", null, undefined]) {
    outputOf(await tools.call({ id: "1", name: "echo", arguments: args }));
  }
  assert.deepEqual(received, [{}, {}, {}, {}]);
});

Deno.test("ToolSet.call() reports invalid_input for a 300 KiB payload, as a string or as a value", async () => {
  const big = { title: "x".repeat(300 * 1024) };
  await assertRefused(JSON.stringify(big), { keyword: "maxBytes", path: "" });
  await assertRefused(big, { keyword: "maxBytes" });
});

Deno.test("ToolSet.call() counts UTF-8 bytes, not characters: 100,000 euro signs are over 256 KiB", async () => {
  const text = JSON.stringify({ title: "€".repeat(100_000) });
  assert.ok(text.length < 256 * 1024);
  await assertRefused(text, { keyword: "maxBytes" });
});

Deno.test("ToolSet.call() reports invalid_input for arguments nested 33 deep and accepts 32", async () => {
  await assertRefused(JSON.stringify({ title: "x", count: nested(32) }), { keyword: "maxDepth" });
  await assertRefused({ title: "x", count: nested(32) }, { keyword: "maxDepth" });
  const received: unknown[] = [];
  const tools = permissive(received);
  outputOf(await tools.call({ id: "1", name: "echo", arguments: JSON.stringify(nested(32)) }));
  const failure = failureOf(await tools.call({ id: "2", name: "echo", arguments: JSON.stringify(nested(33)) }));
  assert.equal(failure.diagnostics?.[0].keyword, "maxDepth");
  assert.equal(failure.diagnostics?.[0].path, "/a".repeat(32));
  assert.equal(received.length, 1);
});

Deno.test("ToolSet.call() refuses a 100,000-deep nested array string without overflowing the stack", async () => {
  const deep = 100_000;
  await assertRefused(`{"title":"x","count":${"[".repeat(deep)}${"]".repeat(deep)}}`, { keyword: "maxDepth" });
  // Five bytes a level: the deepest object string that fits the byte limit.
  const objects = 50_000;
  await assertRefused(`{"title":${'{"":'.repeat(objects)}1${"}".repeat(objects)}}`, { keyword: "maxDepth" });
  let value: unknown = [];
  for (let i = 0; i < deep; i++) value = [value];
  await assertRefused({ title: "x", count: value }, { keyword: "maxDepth" });
  // With the byte limit lifted, a million levels still end in a failure value.
  const roomy = new ToolSet({ limits: { maxBytes: 8 * 1024 * 1024, maxDepth: 32 } }).register(
    spies()[0].tools.get("save_note")!,
  );
  const million = 1_000_000;
  const failure = failureOf(
    await roomy.call({
      id: "1",
      name: "save_note",
      arguments: `{"title":${"[".repeat(million)}${"]".repeat(million)}}`,
    }),
  );
  assert.equal(failure.diagnostics?.[0].keyword, "maxDepth");
});

Deno.test("ToolSet.call() refuses __proto__, constructor and prototype keys a strict schema forbids, and pollutes nothing", async () => {
  const before = Object.getOwnPropertyNames(Object.prototype);
  for (const key of ["__proto__", "constructor", "prototype"]) {
    const text = `{"title":"x","${key}":{"polluted":true,"prototype":{"polluted":true}}}`;
    await assertRefused(text, { keyword: "additionalProperties", path: `/${key}` });
    await assertRefused(JSON.parse(text), { keyword: "additionalProperties", path: `/${key}` });
  }
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype), before);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("ToolSet.call() hands __proto__, constructor and prototype keys to a permissive tool as plain data, polluting nothing", async () => {
  const before = Object.getOwnPropertyNames(Object.prototype);
  const received: Record<string, unknown>[] = [];
  const tools = permissive(received);
  const text = '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"prototype":{"polluted":3},' +
    '"nested":{"__proto__":{"polluted":4}}}';
  outputOf(await tools.call({ id: "1", name: "echo", arguments: text }));
  outputOf(await tools.call({ id: "2", name: "echo", arguments: JSON.parse(text) }));
  for (const input of received) {
    assert.equal(Object.getPrototypeOf(input), Object.prototype);
    assert.ok(Object.hasOwn(input, "__proto__"));
    assert.deepEqual(Object.keys(input), ["__proto__", "constructor", "prototype", "nested"]);
    assert.equal(input.polluted, undefined);
    assert.ok(Object.hasOwn(input.nested as object, "__proto__"));
  }
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype), before);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.prototype.constructor, Object);
});

Deno.test("ToolSet.call() honours a schema that requires __proto__", async () => {
  const received: unknown[] = [];
  const json = defineJsonTool({
    name: "proto_json",
    description: "Needs __proto__.",
    // Parsed, so "__proto__" is an own key and not the literal's prototype.
    inputSchema: JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"],"additionalProperties":false}',
    ),
    effects: [],
    run: (input) => {
      received.push(input);
      return {};
    },
  });
  const typed = defineTool({
    name: "proto_typed",
    description: "Needs __proto__.",
    inputSchema: v.strictObject({ ["__proto__"]: v.string() }),
    effects: [],
    run: (input) => {
      received.push(input);
      return {};
    },
  });
  const tools = new ToolSet().register(json, typed);
  for (const name of ["proto_json", "proto_typed"]) {
    for (const args of ["{}", '{"__proto__":5}', '{"__proto__":{"a":"b"}}', '{"__proto__":null}']) {
      const failure = failureOf(await tools.call({ id: "1", name, arguments: args }));
      assert.equal(failure.kind, "invalid_input", `${name} ${args}`);
      assert.equal(failure.diagnostics?.[0].path, "/__proto__", `${name} ${args}`);
    }
    outputOf(await tools.call({ id: "2", name, arguments: '{"__proto__":"x"}' }));
  }
  assert.equal(received.length, 2);
  for (const input of received) {
    assert.ok(Object.hasOwn(input as object, "__proto__"));
    assert.equal((input as Record<string, unknown>)["__proto__"], "x");
  }
});

Deno.test("ToolSet.call() reports invalid_input naming a missing required field", async () => {
  const [json, typed] = await assertRefused('{"count":1}', { keyword: "required", path: "/title" });
  assert.match(json[0].message, /title/);
  assert.match(typed[0].message, /title/);
});

Deno.test("ToolSet.call() reports invalid_input for a forbidden extra property", async () => {
  await assertRefused('{"title":"x","extra":1}', { keyword: "additionalProperties", path: "/extra" });
  await assertRefused({ title: "x", extra: 1 }, { keyword: "additionalProperties", path: "/extra" });
});

Deno.test("ToolSet.call() reports invalid_input for wrong types, at each field's path", async () => {
  const [json, typed] = await assertRefused('{"title":5,"count":"many"}', { keyword: "type", path: "/count" });
  for (const diagnostics of [json, typed]) {
    assert.deepEqual(diagnostics.map((d) => [d.path, d.keyword]), [["/count", "type"], ["/title", "type"]]);
  }
  await assertRefused('{"title":"x","count":1.5}', { keyword: "type", path: "/count" });
});

Deno.test("ToolSet.call() reports invalid_input for lone surrogates in strings and keys", async () => {
  for (const text of ['{"title":"\\ud800"}', '{"title":"a\\udfffb"}', '{"title":"x","\\udc00":1}']) {
    await assertRefused(text, { keyword: "wellFormed" });
  }
  for (const value of [{ title: "\ud800" }, { title: "\udbff\ud800" }, { title: "x", ["\udc00"]: 1 }]) {
    await assertRefused(value, { keyword: "wellFormed" });
  }
  // A well-formed pair is fine.
  const received: unknown[] = [];
  outputOf(await permissive(received).call({ id: "1", name: "echo", arguments: '{"title":"\\ud83d\\ude00"}' }));
  assert.deepEqual(received, [{ title: "😀" }]);
});

const cyclic: Record<string, unknown> = { title: "x" };
cyclic.self = cyclic;
const unrepresentable: readonly [string, Record<string, unknown>, string][] = [
  ["NaN", { title: "x", count: NaN }, "/count"],
  ["Infinity", { title: "x", count: Infinity }, "/count"],
  ["-Infinity", { title: "x", count: -Infinity }, "/count"],
  ["a BigInt", { title: "x", count: 10n }, "/count"],
  ["a function", { title: "x", count: () => 1 }, "/count"],
  ["a symbol", { title: "x", count: Symbol("s") }, "/count"],
  ["a cyclic object", cyclic, "/self"],
  ["a Date", { title: "x", count: new Date(0) }, "/count"],
  ["a Map", { title: "x", count: new Map() }, "/count"],
  ["a hole in an array", { title: "x", count: [1, , 2] }, "/count/1"],
];
for (const [label, args, path] of unrepresentable) {
  Deno.test(`ToolSet.call() reports invalid_input for ${label} given directly, which JSON cannot carry`, async () => {
    await assertRefused(args, { keyword: "json", path });
  });
}

Deno.test("ToolSet.call() reports invalid_input, not a crash, for arguments whose getter throws", async () => {
  const args = {
    title: "x",
    get count(): number {
      throw new Error("getter exploded");
    },
  };
  const [diagnostics] = await assertRefused(args, { keyword: "json", path: "/count" });
  assert.match(diagnostics[0].message, /getter exploded/);
});

Deno.test("ToolSet.call() reads arguments given directly once, and validates and hands over that copy", async () => {
  let reads = 0;
  const args = {
    get title(): unknown {
      reads++;
      return reads === 1 ? "short" : "x".repeat(300 * 1024);
    },
  };
  const received: unknown[] = [];
  const end = await permissive(received).call({ id: "1", name: "echo", arguments: args });
  assert.equal(end.type, "output");
  assert.deepEqual(received, [{ title: "short" }]);
  assert.equal(reads, 1);
});

Deno.test("ToolSet.call() leaves out a member given directly as undefined, as JSON does: a required one is missing", async () => {
  const received: unknown[] = [];
  const end = await permissive(received).call({ id: "1", name: "echo", arguments: { title: "x", note: undefined } });
  assert.equal(end.type, "output");
  assert.deepEqual(received, [{ title: "x" }]);
  assert.equal(Object.hasOwn(received[0] as object, "note"), false);
  await assertRefused({ title: undefined, count: 1 }, { keyword: "required", path: "/title" });
});

Deno.test("ToolSet.call() reports not_found naming the unknown tool and listing no other tool", async () => {
  const make = (name: string) =>
    defineJsonTool({ name, description: "A tool.", inputSchema: { type: "object" }, effects: [], run: () => ({}) });
  const tools = new ToolSet().register(make("read_file"), make("internal_admin_reset"));
  const failure = failureOf(await tools.call({ id: "1", name: "delete_everything", arguments: "{}" }));
  assert.equal(failure.kind, "not_found");
  assert.match(failure.modelText, /"delete_everything"/);
  assert.match(failure.message, /"delete_everything"/);
  for (const text of [failure.modelText, failure.message, JSON.stringify(failure)]) {
    assert.doesNotMatch(text, /read_file|internal_admin_reset/);
  }
  assert.equal(failure.uncertain, false);
});

Deno.test("ToolSet.call() reports not_found for names that are keys of Object.prototype", async () => {
  const tools = new ToolSet();
  for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]) {
    assert.equal(failureOf(await tools.call({ id: "1", name, arguments: "{}" })).kind, "not_found", name);
  }
});

Deno.test("ToolSet.call() bounds the not_found model text for a huge tool name", async () => {
  const failure = failureOf(await new ToolSet().call({ id: "1", name: "x".repeat(100_000), arguments: "{}" }));
  assert.equal(failure.kind, "not_found");
  assert.ok(failure.modelText.length < 200);
});

Deno.test("ToolSet.call() reports invalid_input for a call without a string id and name", async () => {
  for (const call of [null, 42, {}, { id: 1, name: "x" }, { id: "1", name: ["x"] }]) {
    const failure = failureOf(await new ToolSet().call(call as never));
    assert.equal(failure.kind, "invalid_input");
  }
});

// Registration refusals. A raw DynTool is not checked when it is made, so
// the registry must refuse it itself.

function rawTool(descriptor: Record<string, unknown>): DynTool {
  return {
    descriptor: {
      name: "raw",
      version: "1.0.0",
      description: "A raw tool.",
      inputSchema: { type: "object" },
      effects: [],
      ...descriptor,
    } as unknown as ToolDescriptor,
    async *execute() {
      yield { type: "output", result: { content: [] } };
    },
  };
}

function deepSchema(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: "string" };
  for (let i = 1; i < depth; i++) schema = { type: "object", properties: { a: schema } };
  return schema;
}

const good = () =>
  defineJsonTool({ name: "good", description: "Good.", inputSchema: { type: "object" }, effects: [], run: () => ({}) });

const refusals: readonly [string, () => DynTool, typeof RegistryError | typeof InvalidSpecError, RegExp][] = [
  ["a non-object input schema", () => rawTool({ inputSchema: { type: "string" } }), InvalidSpecError, /type "object"/],
  ["an input schema that is not a schema", () => rawTool({ inputSchema: [] }), InvalidSpecError, /type "object"/],
  [
    "a schema with an external $ref",
    () => rawTool({ inputSchema: { type: "object", properties: { a: { $ref: "https://example.com/a.json" } } } }),
    InvalidSpecError,
    /external references are never fetched/,
  ],
  [
    "a schema with a relative $ref to another document",
    () => rawTool({ inputSchema: { type: "object", properties: { a: { $ref: "other.json#/a" } } } }),
    InvalidSpecError,
    /points outside it/,
  ],
  [
    "an output schema with an external $ref",
    () => rawTool({ outputSchema: { $ref: "http://localhost/out.json" } }),
    InvalidSpecError,
    /output schema/,
  ],
  ["an over-deep schema", () => rawTool({ inputSchema: deepSchema(40) }), InvalidSpecError, /deeper than 32/],
  [
    "an over-large schema",
    () => rawTool({ inputSchema: { type: "object", description: "d".repeat(300 * 1024) } }),
    InvalidSpecError,
    /exceeds 262144 bytes/,
  ],
  ["a malformed effect", () => rawTool({ effects: ["Write"] }), InvalidSpecError, /effect/],
  [
    "non_idempotent with automatic retry",
    () => rawTool({ effects: ["fs.write"], semantics: { idempotency: "non_idempotent", retry: "automatic" } }),
    InvalidSpecError,
    /non_idempotent/,
  ],
  ["a bad name", () => rawTool({ name: "read file" }), InvalidSpecError, /name/],
  ["something that is not a tool", () => ({ descriptor: {} }) as unknown as DynTool, RegistryError, /not a DynTool/],
];

for (const [label, make, error, message] of refusals) {
  Deno.test(`ToolSet.register() refuses ${label} and registers none of its batch`, () => {
    const tools = new ToolSet().register(good());
    const before = tools.descriptors();
    const other = defineJsonTool({
      name: "other",
      description: "Other.",
      inputSchema: { type: "object" },
      effects: [],
      run: () => ({}),
    });
    assert.throws(() => tools.register(other, make()), (thrown: unknown) => {
      assert.ok(thrown instanceof error, String(thrown));
      assert.match((thrown as Error).message, message);
      return true;
    });
    assert.equal(tools.size, 1);
    assert.equal(tools.has("other"), false);
    assert.equal(tools.descriptors(), before);
  });
}

Deno.test("ToolSet.register() refuses a duplicate name, in the set or in the batch, and registers none", () => {
  const tools = new ToolSet().register(good());
  assert.throws(() => tools.register(good()), RegistryError);
  assert.throws(
    () => tools.register(good()),
    { message: 'Cannot register "good" as a tool of that name is already registered' },
  );
  const fresh = new ToolSet();
  const other = defineJsonTool({
    name: "x",
    description: "X.",
    inputSchema: { type: "object" },
    effects: [],
    run: () => 1,
  });
  assert.throws(() => fresh.register(other, good(), good()), RegistryError);
  assert.equal(fresh.size, 0);
  assert.equal(tools.size, 1);
});

Deno.test("ToolSet.register() refuses a conflicting version, naming both versions", () => {
  const at = (version: string) =>
    defineJsonTool({
      name: "tool",
      version,
      description: "T.",
      inputSchema: { type: "object" },
      effects: [],
      run: () => 1,
    });
  const tools = new ToolSet().register(at("1.0.0"));
  assert.throws(() => tools.register(at("2.0.0")), (thrown: unknown) => {
    assert.ok(thrown instanceof RegistryError);
    assert.match(thrown.message, /version 1\.0\.0 .* version 2\.0\.0/);
    return true;
  });
  assert.equal(tools.get("tool")?.descriptor.version, "1.0.0");
  const fresh = new ToolSet();
  assert.throws(() => fresh.register(at("1.0.0"), at("1.1.0")), RegistryError);
  assert.equal(fresh.size, 0);
});

Deno.test("ToolSet.register() takes a raw DynTool with a good descriptor and dispatches it", async () => {
  const tools = new ToolSet().register(rawTool({ inputSchema: { type: "object", required: ["a"] } }));
  assert.equal(failureOf(await tools.call({ id: "1", name: "raw", arguments: "{}" })).kind, "invalid_input");
  assert.equal((await tools.call({ id: "2", name: "raw", arguments: '{"a":1}' })).type, "output");
});

// Handler failures.

function throwing(thrown: () => unknown): ToolSet {
  return new ToolSet().register(defineJsonTool({
    name: "fails",
    description: "Always fails.",
    inputSchema: { type: "object" },
    effects: [],
    run: () => {
      throw thrown();
    },
  }));
}

const STACK_LINE = /\n\s*at |\.ts:\d+|file:\/\//;

Deno.test("ToolSet.call() turns a thrown Error into a handler failure whose modelText has no stack trace", async () => {
  const failure = failureOf(
    await throwing(() => new Error("disk full\n    at write (file:///srv/app.ts:10:5)")).call({
      id: "1",
      name: "fails",
    }),
  );
  assert.equal(failure.kind, "handler");
  assert.match(failure.modelText, /disk full/);
  assert.doesNotMatch(failure.modelText, STACK_LINE);
  assert.equal(failure.retryable, undefined);
  const plain = failureOf(await throwing(() => new TypeError("bad")).call({ id: "2", name: "fails" }));
  assert.doesNotMatch(plain.modelText, STACK_LINE);
  assert.doesNotMatch(plain.message, STACK_LINE);
});

Deno.test("ToolSet.call() keeps a HandlerError's retryable, code and modelText", async () => {
  const failure = failureOf(
    await throwing(() =>
      new HandlerError("ENOENT: /etc/app.conf", {
        retryable: false,
        code: "ENOENT",
        modelText: "No such file. List the directory first.",
        cause: new Error("inner"),
      })
    ).call({ id: "1", name: "fails" }),
  );
  assert.equal(failure.kind, "handler");
  assert.equal(failure.retryable, false);
  assert.equal(failure.code, "ENOENT");
  assert.equal(failure.modelText, "No such file. List the directory first.");
  assert.doesNotMatch(failure.modelText, STACK_LINE);
  const retryable = failureOf(
    await throwing(() => new HandlerError("rate limited", { retryable: true, code: "rate_limited" })).call({
      id: "2",
      name: "fails",
    }),
  );
  assert.equal(retryable.retryable, true);
  assert.equal(retryable.modelText, "rate limited");
});

for (const [label, thrown] of [["string", "disk on fire"], ["undefined", undefined], ["null", null]] as const) {
  Deno.test(`ToolSet.call() turns a thrown ${label} into a handler failure`, async () => {
    const failure = failureOf(await throwing(() => thrown).call({ id: "1", name: "fails" }));
    assert.equal(failure.kind, "handler");
    assert.match(failure.message, /"fails"/);
    assert.ok(failure.modelText.length > 0);
    if (typeof thrown === "string") assert.match(failure.modelText, /disk on fire/);
  });
}

Deno.test("ToolSet.call() turns a rejected async handler into a handler failure", async () => {
  const tool = defineJsonTool({
    name: "async_fails",
    description: "Fails later.",
    inputSchema: { type: "object" },
    effects: [],
    run: async () => {
      await Promise.resolve();
      throw new HandlerError("later", { code: "late" });
    },
  });
  const failure = failureOf(await new ToolSet().register(tool).call({ id: "1", name: "async_fails" }));
  assert.equal(failure.kind, "handler");
  assert.equal(failure.code, "late");
});

Deno.test("ToolSet.call() reports invalid_output when the output breaks outputSchema", async () => {
  const json = defineJsonTool({
    name: "json_out",
    description: "Returns a bad count.",
    inputSchema: { type: "object" },
    outputSchema: { type: "object", properties: { count: { type: "integer" } }, required: ["count"] },
    effects: [],
    run: () => ({ count: "three" }),
  });
  const typed = defineTool({
    name: "typed_out",
    description: "Returns a bad count.",
    inputSchema: v.object({}),
    outputSchema: v.object({ count: v.number() }),
    effects: [],
    run: () => ({ count: "three" }) as unknown as { count: number },
  });
  const tools = new ToolSet().register(json, typed);
  for (const name of ["json_out", "typed_out"]) {
    const failure = failureOf(await tools.call({ id: "1", name, arguments: "{}" }));
    assert.equal(failure.kind, "invalid_output", name);
    assert.equal(failure.diagnostics?.[0].path, "/count", name);
    assert.equal(failure.diagnostics?.[0].keyword, "type", name);
  }
});

Deno.test("ToolSet.call() reports invalid_output for a missing output or one JSON cannot carry", async () => {
  const outputs: unknown[] = [undefined, { count: NaN }, { count: 1n }];
  const tool = defineJsonTool({
    name: "odd_out",
    description: "Returns odd outputs.",
    inputSchema: { type: "object", properties: { i: { type: "integer" } } },
    outputSchema: { type: "object" },
    effects: [],
    run: (input: { i: number }) => outputs[input.i],
  });
  const tools = new ToolSet().register(tool);
  for (let i = 0; i < outputs.length; i++) {
    assert.equal(failureOf(await tools.call({ id: "1", name: "odd_out", arguments: { i } })).kind, "invalid_output");
  }
});

// Diagnostics through dispatch: 2 problems at /alias, 38 at /items/N.

const FORTY_ERRORS = { alias: "A", items: Array.from({ length: 38 }, (_, i) => `item ${i}`) };
const EXPECTED_SIXTEEN = [
  ["/alias", "minLength"],
  ["/alias", "pattern"],
  ...Array.from({ length: 14 }, (_, i) => [`/items/${i}`, "type"]),
];

Deno.test("ToolSet.call() reports at most 16 diagnostics for 40 errors, sorted by path then keyword, with the rest counted", async () => {
  const json = defineJsonTool({
    name: "json_forty",
    description: "Forty ways to fail.",
    inputSchema: {
      type: "object",
      properties: {
        alias: { type: "string", minLength: 3, pattern: "^[a-z]+$" },
        items: { type: "array", items: { type: "integer" } },
      },
    },
    effects: [],
    run: () => ({}),
  });
  const typed = defineTool({
    name: "typed_forty",
    description: "Forty ways to fail.",
    inputSchema: v.object({
      alias: v.pipe(v.string(), v.minLength(3), v.regex(/^[a-z]+$/)),
      items: v.array(v.pipe(v.number(), v.integer())),
    }),
    effects: [],
    run: () => ({}),
  });
  const tools = new ToolSet().register(json, typed);
  for (const name of ["json_forty", "typed_forty"]) {
    const failure = failureOf(await tools.call({ id: "1", name, arguments: JSON.stringify(FORTY_ERRORS) }));
    assert.equal(failure.kind, "invalid_input");
    assert.deepEqual(failure.diagnostics?.map((d) => [d.path, d.keyword]), EXPECTED_SIXTEEN, name);
    assert.equal(failure.omittedDiagnostics, 24, name);
    assert.match(failure.modelText, /and 24 more problems/);
  }
});

Deno.test("ToolSet.stream() yields exactly one failed event, and nothing else, for each kind of bad input", async () => {
  const bad: unknown[] = ["{", "[]", '{"title":5}', { title: NaN }, JSON.stringify({ title: "x".repeat(300 * 1024) })];
  for (const spy of spies()) {
    for (const args of bad) {
      const events = [];
      for await (const event of spy.tools.stream({ id: "1", name: "save_note", arguments: args })) events.push(event);
      assert.equal(events.length, 1);
      assert.equal(events[0].type === "failed" && events[0].failure.kind, "invalid_input");
    }
    assert.deepEqual(spy.received, []);
  }
});

Deno.test("ToolSet.call() reports invalid_output, not a crash, for an output whose getter or proxy throws", async () => {
  const outputs: unknown[] = [
    {
      get count(): number {
        throw new Error("getter exploded");
      },
    },
    new Proxy({}, {
      ownKeys() {
        throw new Error("trap exploded");
      },
    }),
  ];
  const tool = defineJsonTool({
    name: "treacherous",
    description: "Returns outputs that throw when read.",
    inputSchema: { type: "object", properties: { i: { type: "integer" } } },
    effects: [],
    run: (input: { i: number }) => outputs[input.i],
  });
  const tools = new ToolSet().register(tool);
  for (let i = 0; i < outputs.length; i++) {
    const failure = failureOf(await tools.call({ id: "1", name: "treacherous", arguments: { i } }));
    assert.equal(failure.kind, "invalid_output");
    assert.match(failure.diagnostics?.[0].message ?? "", /exploded/);
  }
});

Deno.test("ToolSet.call() keeps the not_found model text well-formed when the name is cut inside a surrogate pair", async () => {
  for (const name of [`${"a".repeat(63)}😀`, "\ud800", `x${"😀".repeat(40)}`]) {
    const failure = failureOf(await new ToolSet().call({ id: "1", name, arguments: "{}" }));
    assert.equal(failure.kind, "not_found");
    assert.ok(failure.modelText.isWellFormed(), JSON.stringify(failure.modelText));
  }
});

Deno.test("ToolSet.call() and resume() bound the caller's tool name in the not_found message to 200 characters, well-formed", async () => {
  const tools = new ToolSet();
  const long = "x".repeat(100_000);
  const called = failureOf(await tools.call({ id: "1", name: long, arguments: "{}" }));
  assert.equal(called.kind, "not_found");
  assert.equal(called.message, `Cannot call "${"x".repeat(200)}" as no tool of that name is registered`);

  const split = failureOf(await tools.call({ id: "1", name: `${"a".repeat(199)}😀${long}`, arguments: "{}" }));
  assert.ok(split.message.isWellFormed(), JSON.stringify(split.message));
  assert.ok(split.message.startsWith(`Cannot call "${"a".repeat(199)}\ufffd" as`), split.message);

  const record = {
    v: 1,
    callId: "1",
    tool: long,
    version: "1.0.0",
    input: {},
    reason: "r",
    origin: "handler",
  } as const;
  const resumed = failureOf(await tools.resume(record as never, {}));
  assert.equal(resumed.kind, "not_found");
  assert.equal(resumed.message, `Cannot resume "${"x".repeat(200)}" as no tool of that name is registered`);
});

function plain(name: string, description = "A tool."): DynTool {
  return defineJsonTool({ name, description, inputSchema: { type: "object" }, effects: [], run: () => ({}) });
}

Deno.test("ToolSet.replace() swaps tools by identity in one step", () => {
  const old = plain("a");
  const kept = plain("b");
  const next = plain("a", "A new version.");
  const added = plain("c");
  const tools = new ToolSet().register(old, kept);
  assert.deepEqual(tools.descriptors().map((d) => d.name), ["a", "b"]);
  tools.replace([old], [next, added]);
  assert.equal(tools.get("a"), next);
  assert.equal(tools.get("b"), kept);
  assert.deepEqual(tools.descriptors().map((d) => d.name), ["a", "b", "c"]);
});

Deno.test("ToolSet.replace() refuses to remove a tool it does not hold by identity, and changes nothing", () => {
  const theirs = plain("a");
  const mine = plain("a");
  const tools = new ToolSet().register(mine);
  assert.throws(
    () => tools.replace([theirs], [plain("b")]),
    (error) =>
      error instanceof RegistryError &&
      error.message ===
        'Cannot remove "a" as this set does not hold that tool: another tool of that name is registered',
  );
  assert.throws(() => tools.replace([plain("x")], []), /no tool of that name is registered/);
  assert.throws(() => tools.replace([mine, mine], []), /it is listed twice/);
  assert.equal(tools.get("a"), mine);
  assert.equal(tools.has("b"), false);
});

Deno.test("ToolSet.replace() adds nothing and removes nothing when an added name is taken", () => {
  const a = plain("a");
  const b = plain("b");
  const tools = new ToolSet().register(a, b);
  const before = tools.descriptors();
  assert.throws(() => tools.replace([a], [plain("c"), plain("b")]), /Cannot register "b" as a tool of that name/);
  assert.equal(tools.descriptors(), before);
  assert.equal(tools.get("a"), a);
  assert.equal(tools.has("c"), false);
});

Deno.test("a hand-made DynTool is checked in every set it joins, so a later change to its descriptor is refused, never used", async () => {
  const tool = {
    descriptor: {
      name: "slow",
      description: "Slow.",
      inputSchema: { type: "object" },
      effects: ["external.mutation"],
    } as Record<string, unknown>,
    // Never answers, as a hung server's tool.
    execute: () => ({
      next: () => new Promise<never>(() => {}),
      [Symbol.asyncIterator]() {
        return this;
      },
    }),
  };
  const first = new ToolSet().register(tool as unknown as DynTool);
  // The second set checks it too: its own frozen descriptor, with semantics.
  const second = new ToolSet().register(tool as unknown as DynTool);
  assert.equal(second.descriptor("slow")?.semantics.idempotency, "non_idempotent");
  assert.ok(Object.isFrozen(second.descriptor("slow")));
  const end = await second.call({ id: "1", name: "slow", arguments: "{}" }, { timeoutMs: 50 });
  assert.equal(end.type === "failed" && end.failure.kind, "timeout");
  tool.descriptor.name = "not a valid name!!";
  assert.throws(() => new ToolSet().register(tool as unknown as DynTool), InvalidSpecError);
  assert.equal(first.descriptor("slow")?.name, "slow");
});

Deno.test("a defined tool whose descriptor is replaced afterwards is checked again where it is registered", () => {
  const ping = defineJsonTool({
    name: "ping",
    description: "Pong.",
    inputSchema: { type: "object" },
    effects: [],
    run: () => ({}),
  });
  const swapped = { ...ping, descriptor: { ...ping.descriptor, effects: ["Not An Effect"] } };
  assert.throws(() => new ToolSet().register(swapped as DynTool), InvalidSpecError);
});

Deno.test("a result's content parts are checked and copied: a part without its string fields is a contract failure, and a handler that kept them changes nothing", async () => {
  let kept: { type: string; text: unknown }[] = [];
  const tool = (text: unknown) => ({
    descriptor: { name: "says", description: "Says.", inputSchema: { type: "object" }, effects: [] },
    async *execute() {
      kept = [{ type: "text", text }];
      yield { type: "output" as const, result: { content: kept } };
    },
  });
  const bad = await new ToolSet().register(tool(42) as unknown as DynTool).call({ id: "1", name: "says" });
  assert.equal(bad.type === "failed" && bad.failure.kind, "contract");
  assert.match(bad.type === "failed" ? bad.failure.message : "", /text content part at 0 has no string text/);
  const good = await new ToolSet().register(tool("hello") as unknown as DynTool).call({ id: "2", name: "says" });
  kept[0].text = "changed";
  kept.push({ type: "text", text: "more" });
  assert.deepEqual(good.type === "output" && good.result.content, [{ type: "text", text: "hello" }]);
});

Deno.test("new ToolSet() refuses an approval gate that is not a function, limits that bound nothing, or an observer that is not an object, with a TypeError", () => {
  const badLimits = [{ limits: "x" }, { limits: { maxBytes: -1, maxDepth: 32 } }, { limits: { maxBytes: 1024 } }, {
    limits: { maxBytes: 1024, maxDepth: 8, maxContainers: Number.NaN },
  }];
  for (
    const options of [{ approve: "yes" }, { approve: true }, { observer: "log" }, { observer: null }, ...badLimits]
  ) {
    assert.throws(() => new ToolSet(options as never), (error: unknown) => {
      assert.ok(error instanceof TypeError, JSON.stringify(options));
      assert.match(
        error.message,
        /^Cannot create the tool set as (approve must be a function|observer must be an object|limits must hold)/,
      );
      return true;
    });
  }
  assert.equal(new ToolSet({ approve: () => true, observer: {} }).parking.approval, true);
  assert.equal(new ToolSet({ limits: { maxBytes: Infinity, maxDepth: 64, maxContainers: 10 } }).size, 0);
});

Deno.test("new ToolSet() reads each of its limits once: the limits it checks are the ones it keeps and holds calls to", async () => {
  const reads = { maxBytes: 0, maxDepth: 0, maxContainers: 0 };
  // Each answers a bound when first read, and what the check refuses after.
  const limits = {
    get maxBytes() {
      return reads.maxBytes++ === 0 ? 1024 : -1;
    },
    get maxDepth() {
      return reads.maxDepth++ === 0 ? 8 : Number.NaN;
    },
    get maxContainers() {
      return reads.maxContainers++ === 0 ? 16 : "many";
    },
  };
  const received: unknown[] = [];
  const tools = new ToolSet({ limits: limits as never }).register(...permissive(received));
  assert.deepEqual(tools.limits, { maxBytes: 1024, maxDepth: 8, maxContainers: 16 });
  assert.deepEqual(reads, { maxBytes: 1, maxDepth: 1, maxContainers: 1 });
  assert.deepEqual(outputOf(await tools.call({ id: "1", name: "echo", arguments: { text: "x" } })), { ok: true });
  const past = await tools.call({ id: "2", name: "echo", arguments: { text: "x".repeat(2000) } });
  assert.equal(failureOf(past).kind, "invalid_input");
  assert.deepEqual(received, [{ text: "x" }]);
});
