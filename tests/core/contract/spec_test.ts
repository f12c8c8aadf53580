import assert from "node:assert/strict";
import { InvalidSpecError, type ToolSpec } from "../../../mod.ts";
import { describeTool } from "../../../dyn.ts";

const base: ToolSpec = {
  name: "read_file",
  description: "Read a UTF-8 text file.",
  inputSchema: {
    type: "object",
    properties: { path: { type: "string" }, request: { type: "object", properties: { id: { type: "string" } } } },
  },
  effects: ["fs.read"],
};

function refusal(change: Record<string, unknown>): InvalidSpecError {
  try {
    describeTool({ ...base, ...change } as ToolSpec);
  } catch (error) {
    assert.ok(error instanceof InvalidSpecError, String(error));
    return error;
  }
  assert.fail(`accepted ${JSON.stringify(change)}`);
}

function assertRefused(change: Record<string, unknown>, path: string): void {
  const error = refusal(change);
  assert.ok(error.problems.some((p) => p.path === path), JSON.stringify(error.problems));
  assert.match(error.message, /^Cannot define/);
  for (const problem of error.problems) assert.match(problem.message, /^Cannot /);
}

Deno.test("describeTool() fills in version 1.0.0 and semantics from the effects", () => {
  const descriptor = describeTool(base);
  assert.equal(descriptor.version, "1.0.0");
  assert.deepEqual(descriptor.semantics, { idempotency: "idempotent", retry: "automatic", concurrency: "parallel" });
  assert.equal(describeTool({ ...base, version: "2.1.0-beta.1+build.5" }).version, "2.1.0-beta.1+build.5");
});

Deno.test("describeTool() returns a frozen deep copy and leaves the spec as it was", () => {
  const spec = structuredClone(base) as ToolSpec & { inputSchema: Record<string, unknown> };
  const before = structuredClone(spec);
  const descriptor = describeTool(spec);
  assert.deepEqual(spec, before);
  assert.ok(
    Object.isFrozen(descriptor) && Object.isFrozen(descriptor.inputSchema) && Object.isFrozen(descriptor.effects),
  );
  spec.inputSchema.type = "array";
  assert.equal((descriptor.inputSchema as Record<string, unknown>).type, "object");
});

Deno.test("describeTool() reads each field of the spec once and keeps nothing else, such as a handler", () => {
  let reads = 0;
  const spec = {
    ...base,
    run: () => ({ text: "" }),
    // A getter answering differently each time: the descriptor holds the value that was checked.
    get timeoutMs() {
      return ++reads === 1 ? 1_000 : -1;
    },
  };
  const descriptor = describeTool(spec);
  assert.equal(descriptor.timeoutMs, 1_000);
  assert.equal(reads, 1);
  // So is everything inside its schemas: the descriptor holds what was checked.
  let schemaReads = 0;
  const nested = describeTool({
    ...base,
    inputSchema: {
      type: "object",
      get properties() {
        return ++schemaReads === 1 ? { path: { type: "string" } } : { path: () => "not JSON" };
      },
    },
  });
  assert.deepEqual(nested.inputSchema, { type: "object", properties: { path: { type: "string" } } });
  assert.equal(schemaReads, 1);
  assert.deepEqual(Object.keys(descriptor).sort(), [
    "description",
    "effects",
    "inputSchema",
    "name",
    "semantics",
    "timeoutMs",
    "version",
  ]);
});

Deno.test("describeTool() accepts names of 1 to 64 letters, digits, _ and -", () => {
  for (const name of ["a", "A-b_9", "x".repeat(64)]) assert.equal(describeTool({ ...base, name }).name, name);
});

Deno.test("describeTool() refuses a name outside ^[a-zA-Z0-9_-]{1,64}$", () => {
  for (const name of ["", "read file", "read.file", "x".repeat(65), "lesen_ä", "a/b", 7, undefined]) {
    assertRefused({ name }, "/name");
  }
});

Deno.test("describeTool() refuses a version that is not semver", () => {
  for (const version of ["1", "1.0", "v1.0.0", "01.0.0", "1.0.0-", "1.0.0+", "latest", 1]) {
    assertRefused({ version }, "/version");
  }
});

Deno.test("describeTool() refuses an empty or missing description", () => {
  for (const description of ["", "   \n", undefined, 5]) assertRefused({ description }, "/description");
});

Deno.test("describeTool() refuses an input schema that is not an object schema", () => {
  for (const inputSchema of [{ type: "string" }, {}, true, [], null, { type: ["object", "null"] }]) {
    assertRefused({ inputSchema }, "/inputSchema");
  }
});

Deno.test("describeTool() refuses an output schema that is not a schema, and accepts a boolean one", () => {
  for (const outputSchema of ["object", 5, [], null]) assertRefused({ outputSchema }, "/outputSchema");
  assert.equal(describeTool({ ...base, outputSchema: true }).outputSchema, true);
});

Deno.test("describeTool() takes timeouts from 1 ms to 24 h and refuses the rest", () => {
  for (const timeoutMs of [1, 30_000, 86_400_000]) {
    assert.equal(describeTool({ ...base, timeoutMs }).timeoutMs, timeoutMs);
  }
  for (const timeoutMs of [0, -1, 86_400_001, 1.5, NaN, Infinity, "100"]) assertRefused({ timeoutMs }, "/timeoutMs");
});

Deno.test("describeTool() refuses a malformed or repeated effect", () => {
  assertRefused({ effects: ["Write"] }, "/effects/0");
  assertRefused({ effects: ["fs.read", "fs"] }, "/effects/1");
  assertRefused({ effects: ["fs.read", "fs.read"] }, "/effects/1");
  assertRefused({ effects: "fs.read" }, "/effects");
  assertRefused({ effects: undefined }, "/effects");
});

Deno.test("describeTool() keeps an unknown well-formed effect", () => {
  assert.deepEqual(describeTool({ ...base, effects: ["billing.charge"] }).effects, ["billing.charge"]);
});

Deno.test("describeTool() refuses non_idempotent with automatic retry, declared or by default", () => {
  assertRefused({ effects: ["fs.write"], semantics: { retry: "automatic" } }, "/semantics/retry");
  assertRefused({ semantics: { idempotency: "non_idempotent" } }, "/semantics/retry");
  assert.equal(
    describeTool({ ...base, semantics: { idempotency: "non_idempotent", retry: "explicit_only" } }).semantics.retry,
    "explicit_only",
  );
});

Deno.test("describeTool() refuses unknown semantics fields and values", () => {
  assertRefused({ semantics: { retry: "always" } }, "/semantics/retry");
  assertRefused({ semantics: { speed: "fast" } }, "/semantics/speed");
  assertRefused({ semantics: "parallel" }, "/semantics");
});

Deno.test("describeTool() takes an idempotency key path only when the input schema declares it", () => {
  assert.equal(describeTool({ ...base, idempotencyKey: "request.id" }).idempotencyKey, "request.id");
  assertRefused({ idempotencyKey: "request.missing" }, "/idempotencyKey");
  assertRefused({ idempotencyKey: "request..id" }, "/idempotencyKey");
  assertRefused({ idempotencyKey: "" }, "/idempotencyKey");
  assertRefused({ idempotencyKey: "constructor" }, "/idempotencyKey");
});

Deno.test("describeTool() reports every problem at once, with the count in the message", () => {
  const error = refusal({ name: "bad name", description: "", effects: ["X"] });
  assert.deepEqual(error.problems.map((p) => p.path), ["/name", "/description", "/effects/0"]);
  assert.match(error.message, /and 2 more problems/);
});

Deno.test("describeTool() refuses a spec that is not an object", () => {
  for (const spec of [null, undefined, "read_file", []]) {
    assert.throws(() => describeTool(spec as never), InvalidSpecError);
  }
});

Deno.test("describeTool() refuses an effects list past 64 at once, sparse or not, without reading its items", () => {
  for (const effects of [new Array(10_000_000), Array.from({ length: 65 }, (_, i) => `fs.read${i}`)]) {
    const started = performance.now();
    const error = refusal({ effects });
    assert.ok(performance.now() - started < 1_000, `${performance.now() - started} ms`);
    assert.deepEqual(error.problems.map((problem) => problem.path), ["/effects"]);
    assert.match(error.message, /Cannot use the effects as they list more than 64: current length is \d+$/);
  }
  // A short sparse list: each hole is one malformed effect.
  const holes = refusal({ effects: ["fs.read", , "net.fetch"] });
  assert.deepEqual(holes.problems.map((problem) => problem.path), ["/effects/1"]);
});

Deno.test("describeTool() reads the effects by index, never through the list's own iterator", () => {
  const effects = Object.assign(["fs.read"], {
    *[Symbol.iterator]() {
      for (;;) yield "fs.read";
    },
  });
  assert.deepEqual(describeTool({ ...base, effects }).effects, ["fs.read"]);
});

Deno.test("describeTool() refuses a field whose getter or proxy throws with InvalidSpecError, and checks it no further", () => {
  const throwing = (): never => {
    throw new Error("boom");
  };
  const cases: [string, Record<string, unknown>, string][] = [
    ["a schema's property getter", {
      inputSchema: {
        type: "object",
        get properties() {
          return throwing();
        },
      },
    }, "/inputSchema"],
    [
      "a schema an idempotency key reads",
      {
        idempotencyKey: "a",
        inputSchema: {
          type: "object",
          get properties() {
            return throwing();
          },
        },
      },
      "/inputSchema",
    ],
    ["a schema's type getter", {
      inputSchema: {
        get type() {
          return throwing();
        },
      },
    }, "/inputSchema"],
    ["the name's getter", {
      get name() {
        return throwing();
      },
    }, "/name"],
    ["an effect's getter", { effects: Object.defineProperty([], 0, { get: throwing, enumerable: true }) }, "/effects"],
    ["the semantics' getter", {
      semantics: {
        get retry() {
          return throwing();
        },
      },
    }, "/semantics"],
    ["the semantics' prototype trap", { semantics: new Proxy({}, { getPrototypeOf: throwing }) }, "/semantics"],
  ];
  for (const [what, change, path] of cases) {
    const spec = Object.defineProperties({}, Object.getOwnPropertyDescriptors({ ...base }));
    Object.defineProperties(spec, Object.getOwnPropertyDescriptors(change));
    let error: unknown;
    try {
      describeTool(spec as ToolSpec);
    } catch (thrown) {
      error = thrown;
    }
    assert.ok(error instanceof InvalidSpecError, `${what}: ${error}`);
    assert.deepEqual(error.problems.map((problem) => problem.path.split("/").slice(0, 2).join("/")), [path], what);
  }
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  assert.throws(
    () => describeTool(proxy as ToolSpec),
    (error) =>
      error instanceof InvalidSpecError &&
      /^Cannot define a tool: Cannot build a tool spec as reading it threw/.test(error.message),
  );
});

Deno.test("describeTool() reads the name once, and names the tool by what it read", () => {
  let reads = 0;
  const spec = {
    ...base,
    description: "",
    get name() {
      return ++reads === 1 ? "checked" : "other";
    },
  };
  assert.throws(
    () => describeTool(spec),
    (error: Error) => /^Cannot define "checked": Cannot use the description/.test(error.message),
  );
  assert.equal(reads, 1);
});
