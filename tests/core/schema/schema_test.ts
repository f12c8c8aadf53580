import assert from "node:assert/strict";
import { defineJsonTool, InvalidSpecError, type JsonSchema } from "../../../mod.ts";
import { compileSchema, draftOf, linearPatterns, type PatternEngine, SchemaBudgetError } from "../../../dyn.ts";
import { exponentialSchema } from "../../fixtures/hostile_schemas.ts";

function paths(schema: JsonSchema, value: unknown): string[] {
  const result = compileSchema(schema).validate(value);
  return result.ok ? [] : result.diagnostics.map((d) => `${d.path} ${d.keyword}`);
}

Deno.test("draftOf() reads draft-07, draft-06, draft-04 and 2019-09 from $schema, and 2020-12 otherwise", () => {
  assert.equal(draftOf({ $schema: "http://json-schema.org/draft-07/schema#" }), "7");
  assert.equal(draftOf({ $schema: "http://json-schema.org/draft-06/schema#" }), "6");
  assert.equal(draftOf({ $schema: "http://json-schema.org/draft-04/schema#" }), "4");
  assert.equal(draftOf({ $schema: "https://json-schema.org/draft/2019-09/schema" }), "2019-09");
  assert.equal(draftOf({ $schema: "https://json-schema.org/draft/2020-12/schema" }), "2020-12");
  assert.equal(draftOf({ type: "object" }), "2020-12");
  assert.equal(draftOf(true), "2020-12");
  assert.equal(draftOf({ $schema: 7 }), "2020-12");
});

Deno.test("compileSchema() validates as Draft 2020-12 by default: prefixItems and items apply", () => {
  const schema = { type: "array", prefixItems: [{ type: "string" }], items: false };
  assert.equal(compileSchema(schema).draft, "2020-12");
  assert.deepEqual(paths(schema, ["a"]), []);
  assert.deepEqual(paths(schema, [1]), ["/0 type"]);
  assert.equal(paths(schema, ["a", "b"]).length, 1);
});

Deno.test("compileSchema() honours draft-07 when $schema declares it: items as a tuple", () => {
  const schema = {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "array",
    items: [{ type: "string" }],
    additionalItems: false,
  };
  assert.equal(compileSchema(schema).draft, "7");
  assert.deepEqual(paths(schema, ["a"]), []);
  assert.deepEqual(paths(schema, [1]), ["/0 type"]);
  assert.equal(paths(schema, ["a", "b"]).length, 1);
});

Deno.test("compileSchema() refuses a $ref, $dynamicRef or relative reference that points outside the schema", () => {
  const outside: JsonSchema[] = [
    { $ref: "https://example.com/schema.json" },
    { type: "object", properties: { a: { $ref: "other.json#/a" } } },
    { anyOf: [{ type: "string" }, { items: { $ref: "http://localhost:1234/x.json" } }] },
    { $defs: { a: { not: { $dynamicRef: "https://example.com/tree#node" } } } },
    { $ref: "file:///etc/passwd" },
  ];
  for (const schema of outside) {
    assert.throws(() => compileSchema(schema), (error: unknown) => {
      assert.ok(error instanceof InvalidSpecError);
      assert.match(error.message, /points outside it: external references are never fetched/);
      return true;
    });
  }
});

Deno.test("compileSchema() accepts references inside the schema, to embedded $id resources and to remotes", () => {
  const internal = {
    $defs: { name: { type: "string" }, inner: { $id: "https://example.com/inner", type: "integer" } },
    type: "object",
    properties: {
      a: { $ref: "#/$defs/name" },
      b: { $ref: "https://example.com/inner" },
      c: { $ref: "https://example.com/remote.json" },
    },
  };
  const compiled = compileSchema(internal, {
    remotes: { "https://example.com/remote.json": { type: "boolean" } },
  });
  assert.deepEqual(compiled.validate({ a: "x", b: 1, c: true }), { ok: true });
  const result = compiled.validate({ a: 1, b: "x", c: "x" });
  assert.equal(result.ok, false);
  if (!result.ok) assert.deepEqual(result.diagnostics.map((d) => d.path), ["/a", "/b", "/c"]);
  // Data keywords are not schemas: a "$ref" inside const is only data.
  assert.doesNotThrow(() => compileSchema({ const: { $ref: "https://example.com/x" } }));
});

Deno.test("compileSchema() checks each remote as it checks the schema, naming the remote's URI", () => {
  const uri = "https://example.com/a.json";
  const refused = (remote: unknown, pattern: RegExp) =>
    assert.throws(
      () => compileSchema({ $ref: uri }, { remotes: { [uri]: remote as JsonSchema } }),
      (error: unknown) => {
        assert.ok(error instanceof InvalidSpecError);
        assert.ok(error.message.includes(`remote "${uri}"`), error.message);
        assert.match(error.message, pattern);
        return true;
      },
    );
  let deep: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < 40; i++) deep = { type: "object", properties: { a: deep } };
  refused(deep, /is not bounded JSON: .*deeper than 32/);
  refused({ type: "string", maxLength: NaN }, /is not bounded JSON/);
  refused({ description: "x".repeat(300 * 1024) }, /is not bounded JSON/);
  for (const notSchema of [null, [], "string", 7]) {
    refused(notSchema, /must be an object or a boolean: current value of/);
  }
  refused(
    { $ref: "https://elsewhere.example/b.json" },
    /"https:\/\/elsewhere\.example\/b\.json" at \/\$ref of its remote/,
  );
  refused({ properties: { b: { $ref: "c.json" } } }, /points outside it and its remotes/);

  // A remote may refer to itself, to a resource it embeds and to another remote, relative to its own URI.
  const compiled = compileSchema({ $ref: uri }, {
    remotes: {
      [uri]: {
        type: "object",
        properties: { n: { $ref: "#/$defs/n" }, b: { $ref: "b.json" } },
        $defs: { n: { type: "integer" } },
      },
      "https://example.com/b.json": { type: "boolean" },
    },
  });
  assert.deepEqual(compiled.validate({ n: 1, b: true }), { ok: true });
  assert.equal(compiled.validate({ n: "1", b: 1 }).ok, false);
});

Deno.test("compileSchema() refuses an internal reference that does not resolve; the fallback fails closed on one", async () => {
  assert.throws(
    () => compileSchema({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } }),
    (error) => error instanceof InvalidSpecError && /"#\/\$defs\/missing"/.test(error.message),
  );
  // $recursiveRef takes the schema to the fallback, which reads references only when it validates.
  const fallback = compileSchema({
    $schema: "https://json-schema.org/draft/2019-09/schema",
    $recursiveAnchor: true,
    type: "object",
    properties: { a: { $ref: "#/$defs/missing" } },
  });
  assert.equal(fallback.engine, "fallback");
  await fallback.loading;
  const result = fallback.validate({ a: 1 });
  assert.equal(result.ok, false);
  if (!result.ok) assert.equal(result.diagnostics[0].keyword, "$ref");
});

Deno.test("compileSchema() refuses an over-deep, over-large or non-JSON schema", () => {
  let deep: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < 40; i++) deep = { type: "object", properties: { a: deep } };
  assert.throws(() => compileSchema(deep), /deeper than 32/);
  assert.throws(() => compileSchema({ description: "x".repeat(300 * 1024) }), /exceeds 262144 bytes/);
  assert.throws(() => compileSchema({ minimum: NaN }), InvalidSpecError);
  assert.throws(() => compileSchema({ default: () => 1 }), InvalidSpecError);
});

Deno.test("compileSchema() refuses what is not a schema", () => {
  for (const schema of [null, 5, "object", []]) {
    assert.throws(() => compileSchema(schema as never), InvalidSpecError);
  }
  assert.deepEqual(compileSchema(true).validate(1), { ok: true });
  assert.equal(compileSchema(false).validate(1).ok, false);
});

Deno.test("compileSchema() checks a schema at once, compiling each distinct pattern once, and validates with those", () => {
  let compiles = 0;
  const counting: PatternEngine = {
    compile: (source) => {
      compiles++;
      return new RegExp(source, "u");
    },
  };
  const schema = compileSchema({
    type: "object",
    properties: { a: { type: "string", pattern: "^a+$" }, b: { type: "string", pattern: "^a+$" } },
  }, { patterns: counting });
  assert.equal(compiles, 1, "the check asks the engine whether it can run the pattern, once for both properties");
  assert.ok(Object.isFrozen(schema.schema));
  assert.deepEqual(schema.validate({ a: "aa", b: "a" }), { ok: true });
  assert.equal(schema.validate({ a: "b" }).ok, false);
  assert.equal(compiles, 1, "the validator runs the pattern the check compiled");
});

Deno.test("an untrusted schema's patterns count toward the compiled-size budget, by how much RE2 would write out", () => {
  const properties = (make: (i: number) => string) =>
    Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}`, { type: "string", pattern: make(i) }]));
  // 300 distinct plain patterns: 400 each, over the default 100,000.
  assert.throws(
    () => compileSchema({ type: "object", properties: properties((i) => `^a${i}$`) }, { patterns: linearPatterns }),
    (error) =>
      error instanceof InvalidSpecError && /an untrusted schema's pattern counts as 400 schemas/.test(error.message),
  );
  // One that repeats a thousand times is 60,400; a second is over.
  const repeating = (count: number) => ({
    type: "object",
    properties: Object.fromEntries(
      Array.from({ length: count }, (_, i) => [`f${i}`, { type: "string", pattern: `^\\p{L}{1,1000}${i}$` }]),
    ),
  });
  assert.equal(compileSchema(repeating(1), { patterns: linearPatterns }).engine, "compiled");
  assert.throws(() => compileSchema(repeating(2), { patterns: linearPatterns }), InvalidSpecError);
  // The same pattern on every property counts once; the host's own schemas, on the built-in RegExp, do not count.
  compileSchema({ type: "object", properties: properties(() => "^a+$") }, { patterns: linearPatterns });
  compileSchema({ type: "object", properties: properties((i) => `^a${i}$`) });
});

Deno.test("compileSchema() keeps a private copy: the caller's schema is neither changed nor consulted later", () => {
  const schema = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
  const before = structuredClone(schema);
  const compiled = compileSchema(schema);
  assert.deepEqual(schema, before);
  schema.required.pop();
  schema.properties.a.type = "number";
  assert.equal(compiled.validate({}).ok, false);
  assert.deepEqual(compiled.validate({ a: "x" }), { ok: true });
  assert.deepEqual(compiled.schema, before);
});

Deno.test("compileSchema() diagnostics use escaped JSON Pointer paths and name missing and extra properties", () => {
  const schema = JSON.parse(`{
    "type": "object",
    "properties": { "a/b": { "type": "string" }, "m~n": { "type": "string" }, "list": { "type": "array", "items": { "type": "integer" } } },
    "required": ["need"],
    "additionalProperties": false
  }`);
  const result = compileSchema(schema).validate({ "a/b": 1, "m~n": 2, list: [1, "x"], extra: true });
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.deepEqual(result.diagnostics.map((d) => [d.path, d.keyword]), [
    ["/a~1b", "type"],
    ["/extra", "additionalProperties"],
    ["/list/1", "type"],
    ["/m~0n", "type"],
    ["/need", "required"],
  ]);
  assert.equal(result.diagnostics[1].message, 'Property "extra" is not allowed.');
  assert.equal(result.diagnostics[4].message, 'Missing required property "need".');
});

Deno.test("compileSchema() reports at most 16 diagnostics and counts the rest", () => {
  const compiled = compileSchema({ type: "array", items: { type: "string" } });
  const result = compiled.validate(Array.from({ length: 40 }, (_, i) => i));
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.equal(result.diagnostics.length, 16);
  assert.equal(result.omitted, 24);
  assert.deepEqual(result.diagnostics.map((d) => d.path), Array.from({ length: 16 }, (_, i) => `/${i}`));
});

const MALFORMED: [string, JsonSchema, RegExp][] = [
  [
    "an invalid regular expression",
    { type: "object", properties: { a: { type: "string", pattern: "([a-z" } } },
    /"pattern" at \/properties\/a\/pattern must be a regular expression/,
  ],
  ["enum: 5", { type: "object", properties: { a: { enum: 5 } } }, /"enum" at \/properties\/a\/enum must be an array/],
  ["allOf: 5", { type: "object", allOf: 5 }, /"allOf" at \/allOf must be a non-empty array of schemas/],
  ['required: "name"', { type: "object", required: "name" }, /"required" at \/required must be an array/],
  [
    "draft-04's boolean exclusiveMinimum",
    { type: "object", properties: { n: { type: "number", minimum: 0, exclusiveMinimum: true } } },
    /"exclusiveMinimum" at \/properties\/n\/exclusiveMinimum must be a number/,
  ],
];

for (const [what, schema, message] of MALFORMED) {
  Deno.test(`compileSchema() and defineJsonTool() refuse a schema with ${what}, naming the keyword`, () => {
    assert.throws(
      () => compileSchema(schema, { label: "inputSchema" }),
      (error) => error instanceof InvalidSpecError && message.test(error.message),
    );
    assert.throws(
      () => defineJsonTool({ name: "t", description: "A tool.", inputSchema: schema, effects: [], run: () => ({}) }),
      (error) =>
        error instanceof InvalidSpecError && message.test(error.message) &&
        error.message.startsWith("Cannot compile the inputSchema as"),
    );
  });
}

Deno.test("compileSchema() compiles 2020-12 and draft-07 schemas, and older drafts as the nearest where they mean the same; the fallback runs the rest", async () => {
  assert.equal(compileSchema({ type: "object" }).engine, "compiled");
  assert.equal(
    compileSchema({ $schema: "http://json-schema.org/draft-07/schema#", type: "object" }).engine,
    "compiled",
  );
  const below5 = { $schema: "http://json-schema.org/draft-04/schema#", maximum: 5, exclusiveMaximum: true };
  // Compiled as draft-07: its boolean exclusiveMaximum read as draft-04 means it.
  const draft4 = compileSchema(below5);
  assert.equal(draft4.engine, "compiled");
  assert.equal(draft4.draft, "4");
  assert.equal(draft4.validate(5).ok, false);
  assert.deepEqual(draft4.validate(4), { ok: true });
  assert.deepEqual(draft4.schema, below5, "the schema as given, not as compiled");
  // A `$id` is draft-04's to ignore and draft-07's to read: such a schema runs on the fallback, as its draft.
  const withId = compileSchema({ ...below5, $id: "urn:below-5" });
  assert.equal(withId.engine, "fallback");
  await withId.loading;
  assert.equal(withId.loading, undefined);
  assert.equal(withId.validate(5).ok, false);
  assert.deepEqual(withId.validate(4), { ok: true });
  // So does one the compiled validator finds malformed, which the fallback reads leniently, as it always did.
  const malformed = compileSchema({ $schema: "http://json-schema.org/draft-04/schema#", required: "a" });
  assert.equal(malformed.engine, "fallback");
  assert.throws(() => compileSchema({ required: "a" }), InvalidSpecError);
  // A 2019-09 schema compiles as 2020-12 unless it uses what 2020-12 reads differently.
  const draft2019 = { $schema: "https://json-schema.org/draft/2019-09/schema", items: { type: "string" } };
  assert.equal(compileSchema(draft2019).engine, "compiled");
  assert.equal(compileSchema({ ...draft2019, items: [{ type: "string" }] }).engine, "fallback");
  const recursive = compileSchema({
    $schema: "https://json-schema.org/draft/2019-09/schema",
    $recursiveAnchor: true,
    items: { $recursiveRef: "#" },
  });
  assert.equal(recursive.engine, "fallback");
});

Deno.test("compileSchema() compiles a draft-04 schema's id as draft-07's $id: base URIs, fragment names, a property named id", () => {
  const schema = {
    $schema: "http://json-schema.org/draft-04/schema#",
    id: "http://example.com/root.json",
    definitions: { count: { id: "#count", type: "integer" }, label: { id: "label.json", type: "string" } },
    properties: { n: { $ref: "#count" }, name: { $ref: "label.json" }, id: { type: "number" } },
  };
  for (const patterns of [undefined, linearPatterns]) {
    const compiled = compileSchema(schema, patterns === undefined ? {} : { patterns });
    assert.equal(compiled.engine, "compiled");
    assert.equal(compiled.draft, "4");
    assert.deepEqual(compiled.validate({ n: 1, name: "a", id: 2 }), { ok: true });
    const refused = compiled.validate({ n: "1", name: 2, id: "3" });
    assert.deepEqual(refused.ok ? [] : refused.diagnostics.map(({ path }) => path), ["/id", "/n", "/name"]);
  }
  assert.deepEqual(compileSchema(schema).schema, schema, "the schema as given, not as compiled");
});

Deno.test("a draft-04 schema refused for its id is told of its id, where its author wrote it; one id naming two schemas is refused, a host's too", () => {
  const draft4 = "http://json-schema.org/draft-04/schema#";
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [
      { $schema: draft4, definitions: { a: { id: "#foo" }, b: { id: "#foo" } } },
      "/definitions/b/id",
      /^Cannot compile the schema as \/definitions\/b\/id names a schema that \/definitions\/a names already: current value is "#foo"$/,
    ],
    [
      { $schema: draft4, definitions: { a: { id: "http://[bad" } } },
      "/definitions/a/id",
      /^Cannot compile the schema as "id" at \/definitions\/a\/id must be a URI reference/,
    ],
  ];
  for (const [schema, path, message] of cases.slice(0, 1)) {
    // Which of the two a reference meant cannot be known: a host's own such schema is refused too, not left to the
    // fallback, which would take one of them.
    assert.throws(
      () => compileSchema(schema),
      (error) => error instanceof InvalidSpecError && message.test(error.message) && error.problems[0].path === path,
    );
  }
  for (const [schema, path, message] of cases) {
    assert.throws(
      () => compileSchema(schema, { patterns: linearPatterns }),
      (error) =>
        error instanceof InvalidSpecError && message.test(error.message) &&
        error.problems.length === 1 && error.problems[0].path === path,
    );
  }
});

Deno.test("compileSchema() compiles a draft-04 schema's remotes as draft-04 too, unless one declares another draft", async () => {
  const main = {
    $schema: "http://json-schema.org/draft-04/schema#",
    properties: { a: { $ref: "http://example.com/r.json#whole" } },
  };
  const remote = { definitions: { whole: { id: "#whole", type: "integer" } } };
  for (const patterns of [undefined, linearPatterns]) {
    const options = {
      remotes: { "http://example.com/r.json": remote },
      ...(patterns === undefined ? {} : { patterns }),
    };
    const schema = compileSchema(main, options);
    assert.equal(schema.engine, "compiled");
    assert.deepEqual(schema.validate({ a: 1 }), { ok: true });
    assert.equal(schema.validate({ a: "1" }).ok, false);
  }
  // A remote with a keyword draft-07 reads differently keeps a host's schema on the fallback, and refuses an untrusted
  // one, naming the remote.
  const differing = { "http://example.com/r.json": { ...remote, const: 1 } };
  const host = compileSchema(main, { remotes: differing });
  assert.equal(host.engine, "fallback");
  await host.loading;
  assert.equal(host.validate({ a: "1" }).ok, false);
  assert.throws(
    () => compileSchema(main, { remotes: differing, patterns: linearPatterns }),
    (error) =>
      error instanceof InvalidSpecError &&
      /"const" at http:\/\/example\.com\/r\.json# means something else there/.test(error.message),
  );
});

Deno.test("compileSchema() asserts draft-07's content keywords only in draft-07, not in the drafts compiled as it", async () => {
  for (const [draft, ok] of [["04", true], ["06", true], ["07", false]] as const) {
    const schema = compileSchema(
      {
        $schema: `http://json-schema.org/draft-${draft}/schema#`,
        type: "string",
        contentMediaType: "application/json",
      },
      { formats: "assert" },
    );
    await schema.loading;
    assert.equal(schema.validate("{not json").ok, ok, `draft-${draft}`);
  }
});

Deno.test("compileSchema() compiles a draft-06 schema as draft-07, and runs one with draft-07's conditionals as draft-06 reads it", async () => {
  const draft6 = "http://json-schema.org/draft-06/schema#";
  for (const patterns of [undefined, linearPatterns]) {
    const options = patterns === undefined ? {} : { patterns };
    // Draft-07 reads the keywords draft-06 has as draft-06 does: array-form items, additionalItems, dependencies.
    const tuple = compileSchema({ $schema: draft6, items: [{ type: "string" }], additionalItems: false }, options);
    assert.equal(tuple.engine, "compiled");
    assert.equal(tuple.draft, "6");
    assert.deepEqual(tuple.validate(["a"]), { ok: true });
    assert.deepEqual(tuple.validate(["a", 1]).ok, false);
    const dependent = compileSchema({ $schema: draft6, dependencies: { card: ["billing"] } }, options);
    assert.deepEqual(dependent.validate({ card: 1, billing: 2 }), { ok: true });
    assert.deepEqual(dependent.validate({ card: 1 }), {
      ok: false,
      diagnostics: [{
        path: "/billing",
        keyword: "dependencies",
        message: 'Missing property "billing", required when "card" is present.',
      }],
      omitted: 0,
    });
  }
  // `if` is not a draft-06 keyword: a host's schema with it runs on the fallback, which ignores it as draft-06 does.
  const conditional = { $schema: draft6, if: { type: "string" }, then: { minLength: 3 }, maxLength: 4 };
  const host = compileSchema(conditional);
  assert.equal(host.engine, "fallback");
  await host.loading;
  assert.deepEqual(host.validate("ab"), { ok: true });
  assert.equal(host.validate("abcde").ok, false);
  assert.throws(
    () => compileSchema(conditional, { patterns: linearPatterns }),
    (error) => error instanceof InvalidSpecError && /"if" at the root means something else there/.test(error.message),
  );
});

Deno.test("a remote is read as the draft it declares: its $id names a schema under a draft-04 root, its if applies under a draft-06 root", async () => {
  const draft4 = "http://json-schema.org/draft-04/schema#";
  const draft6 = "http://json-schema.org/draft-06/schema#";
  const draft7 = "http://json-schema.org/draft-07/schema#";
  // The remote names "urn:a" by draft-07's `$id`, which the draft-04 root's reference finds.
  const named = { $schema: draft7, definitions: { a: { $id: "urn:a", type: "string" } } };
  for (const patterns of [undefined, linearPatterns]) {
    const schema = compileSchema(
      { $schema: draft4, properties: { a: { $ref: "urn:a" } } },
      { remotes: { "urn:r": named }, ...(patterns === undefined ? {} : { patterns }) },
    );
    assert.equal(schema.validate({ a: 1 }).ok, false);
    assert.deepEqual(schema.validate({ a: "1" }), { ok: true });
  }
  // And the other way: a draft-07 root, a draft-04 remote naming "urn:b" by `id`.
  const old = compileSchema(
    { $schema: draft7, properties: { b: { $ref: "urn:b" } } },
    { remotes: { "urn:s": { $schema: draft4, definitions: { b: { id: "urn:b", type: "integer" } } } } },
  );
  assert.equal(old.validate({ b: "1" }).ok, false);
  // A draft-06 host schema on the fallback (its own `if` sends it there) keeps a draft-07 remote's conditionals.
  const conditional = compileSchema(
    { $schema: draft6, allOf: [{ $ref: "urn:c" }], if: { const: 0 }, then: false },
    { remotes: { "urn:c": { $schema: draft7, if: { type: "string" }, then: { minLength: 3 } } } },
  );
  assert.equal(conditional.engine, "fallback");
  await conditional.loading;
  assert.equal(conditional.validate("a").ok, false);
  assert.deepEqual(conditional.validate("abc"), { ok: true });
});

Deno.test("up to draft-07 an identifier beside $ref is ignored, as $ref makes its siblings; in 2020-12 it sets the base", () => {
  for (
    const [draft, id] of [["http://json-schema.org/draft-04/schema#", "id"], [
      "http://json-schema.org/draft-07/schema#",
      "$id",
    ]]
  ) {
    // "a.json" resolves against the root's base, not the sibling's, and so names /definitions/a, not a document outside.
    const schema = compileSchema({
      $schema: draft,
      [id]: "http://example.com/root.json",
      definitions: { a: { [id]: "a.json", type: "string" } },
      allOf: [{ [id]: "http://other.example/x.json", $ref: "a.json" }],
    });
    assert.equal(schema.validate(1).ok, false, draft);
    assert.deepEqual(schema.validate("s"), { ok: true }, draft);
  }
  assert.throws(
    () =>
      compileSchema({
        $id: "http://example.com/root.json",
        $defs: { a: { $id: "a.json", type: "string" } },
        allOf: [{ $id: "http://other.example/x.json", $ref: "a.json" }],
      }),
    (error) =>
      error instanceof InvalidSpecError && /"a\.json" at \/allOf\/0\/\$ref points outside it/.test(error.message),
  );
});

Deno.test("an older draft's schema reached by a $ref into a member that is no keyword is read as that draft", async () => {
  const draft6 = "http://json-schema.org/draft-06/schema#";
  // Draft-06 has no `if`: where a reference reaches one, a host's schema runs on the fallback, which ignores it, and an
  // untrusted one is refused, naming it.
  const conditional = { $schema: draft6, allOf: [{ $ref: "#/x" }], x: { if: { type: "string" }, then: false } };
  const host = compileSchema(conditional);
  assert.equal(host.engine, "fallback");
  await host.loading;
  assert.deepEqual(host.validate("a"), { ok: true });
  assert.throws(
    () => compileSchema(conditional, { patterns: linearPatterns }),
    (error) => error instanceof InvalidSpecError && /"if" at \/x means something else there/.test(error.message),
  );
  // Nor content keywords, nor, on the fallback, a format asserted where formats are annotations.
  const content = compileSchema(
    { $schema: draft6, allOf: [{ $ref: "#/x" }], x: { contentMediaType: "application/json" } },
    { formats: "assert" },
  );
  await content.loading;
  assert.deepEqual(content.validate("{not json"), { ok: true });
  const format = compileSchema({ $schema: draft6, allOf: [{ $ref: "#/x" }], x: { format: "email" }, if: true });
  assert.equal(format.engine, "fallback");
  await format.loading;
  assert.deepEqual(format.validate("not an email"), { ok: true });
  // Draft-04's boolean exclusiveMaximum there becomes draft-07's number.
  const bound = compileSchema({
    $schema: "http://json-schema.org/draft-04/schema#",
    allOf: [{ $ref: "#/x~1y" }],
    "x/y": { maximum: 5, exclusiveMaximum: true },
  });
  assert.equal(bound.engine, "compiled");
  assert.equal(bound.validate(5).ok, false);
  assert.deepEqual(bound.validate(4), { ok: true });
});

Deno.test("a host's draft-04 schema naming a schema by an id in a member that is no keyword runs on the fallback, as draft-04 reads it", async () => {
  // The draft-04 specification's own example: `schema1` is no keyword, yet its `id` names "#foo".
  const schema = compileSchema({
    $schema: "http://json-schema.org/draft-04/schema#",
    id: "http://x.y.z/rootschema.json#",
    schema1: { id: "#foo", type: "integer" },
    properties: { a: { $ref: "#foo" } },
  });
  assert.equal(schema.engine, "fallback");
  await schema.loading;
  assert.equal(schema.validate({ a: "x" }).ok, false);
  assert.deepEqual(schema.validate({ a: 1 }), { ok: true });
});

Deno.test("a host's schema of an older draft over the budget, or that would never end, is refused, not run on the fallback", () => {
  // The fallback has no budget: a call against a draft-04 schema expanding to 2^20 schemas held the host 1.6 s.
  for (const draft of ["4", "6", "2019-09"] as const) {
    assert.throws(
      () => compileSchema(exponentialSchema(20, draft)),
      (error) =>
        error instanceof InvalidSpecError && /references expand to more than 100000 schemas/.test(error.message),
      `draft ${draft}`,
    );
  }
  assert.throws(
    () =>
      compileSchema({
        $schema: "http://json-schema.org/draft-04/schema#",
        properties: { a: { $ref: "#/properties/a" } },
      }),
    (error) => error instanceof InvalidSpecError && /applies itself again to the same value/.test(error.message),
  );
  // One it finds malformed still runs on the fallback, which reads it leniently, as its draft always did.
  assert.equal(compileSchema({ $schema: "http://json-schema.org/draft-04/schema#", required: "a" }).engine, "fallback");
});

Deno.test("compileSchema() refuses a duplicate schema URI of a compiled schema at definition", () => {
  assert.throws(
    () =>
      compileSchema({
        $defs: { a: { $id: "https://example.com/a.json" }, b: { $id: "https://example.com/a.json" } },
      }, { label: "inputSchema" }),
    (error) =>
      error instanceof InvalidSpecError &&
      error.message.includes("/$defs/b/$id names a schema that /$defs/a names already"),
  );
});

Deno.test("a fallback schema reports why it refused an array for contains, and not why each item failed it", async () => {
  const schema = compileSchema({
    $schema: "https://json-schema.org/draft/2019-09/schema",
    $recursiveAnchor: true,
    contains: { type: "string" },
  });
  assert.equal(schema.engine, "fallback");
  await schema.loading;
  assert.deepEqual(schema.validate([1, 2]), {
    ok: false,
    diagnostics: [{ path: "", keyword: "contains", message: "Array does not contain item matching schema." }],
    omitted: 0,
  });
  // An item that does not match is no failure of the array: only the count is reported, not why each item failed.
  const twoStrings = compileSchema({
    $schema: "https://json-schema.org/draft/2019-09/schema",
    $recursiveAnchor: true,
    properties: {
      list: { contains: { type: "string" }, minContains: 2 },
      contains: { type: "string" },
    },
  });
  await twoStrings.loading;
  assert.deepEqual(twoStrings.validate({ list: ["a", 1, 2], contains: 3 }), {
    ok: false,
    diagnostics: [
      { path: "/contains", keyword: "type", message: 'Instance type "number" is invalid. Expected "string".' },
      {
        path: "/list",
        keyword: "minContains",
        message: "Array must contain at least 2 items matching schema. Only 1 items were found.",
      },
    ],
    omitted: 0,
  });
});

Deno.test("a fallback schema reports a missing property dependency as the compiled validator does", async () => {
  const draft4 = compileSchema({
    $schema: "http://json-schema.org/draft-04/schema#",
    $id: "urn:card",
    dependencies: { card: ["billing"], gift: { required: ["to"] } },
  });
  const draft2019 = compileSchema({
    $schema: "https://json-schema.org/draft/2019-09/schema",
    $recursiveAnchor: true,
    dependentRequired: { card: ["billing"] },
  });
  for (const [schema, keyword] of [[draft4, "dependencies"], [draft2019, "dependentRequired"]] as const) {
    assert.equal(schema.engine, "fallback");
    await schema.loading;
    assert.deepEqual(schema.validate({ card: 1 }), {
      ok: false,
      diagnostics: [{
        path: "/billing",
        keyword,
        message: 'Missing property "billing", required when "card" is present.',
      }],
      omitted: 0,
    });
  }
  // A schema dependency says why through what failed inside it.
  assert.deepEqual(draft4.validate({ card: 1, billing: 2, gift: true }), {
    ok: false,
    diagnostics: [{ path: "/to", keyword: "required", message: 'Missing required property "to".' }],
    omitted: 0,
  });
});

Deno.test("compileSchema() reports a duplicate schema URI of a fallback schema on its first validation", async () => {
  const schema = compileSchema({
    $schema: "http://json-schema.org/draft-04/schema#",
    // A `$id`, which draft-04 ignores and draft-07 reads, keeps it on the fallback.
    $id: "urn:root",
    definitions: { a: { id: "https://example.com/a.json" }, b: { id: "https://example.com/a.json" } },
  }, { label: "inputSchema" });
  assert.equal(schema.engine, "fallback");
  await schema.loading;
  for (let i = 0; i < 2; i++) {
    assert.throws(
      () => schema.validate({}),
      (error) =>
        error instanceof InvalidSpecError &&
        /^Cannot compile the inputSchema: Duplicate schema URI/.test(error.message),
    );
  }
});

Deno.test("compileSchema() compiles a 2020-12 $dynamicRef; a draft-07 one is refused, as the fallback would resolve it unsoundly", () => {
  const tree = compileSchema({ $dynamicAnchor: "node", type: "array", items: { $dynamicRef: "#node" } });
  assert.equal(tree.engine, "compiled");
  assert.deepEqual(tree.validate([[], [[]]]), { ok: true });
  assert.equal(tree.validate([[1]]).ok, false);
  assert.throws(
    () =>
      compileSchema({
        $schema: "http://json-schema.org/draft-07/schema#",
        $dynamicAnchor: "node",
        items: { $dynamicRef: "#node" },
      }),
    (error) => error instanceof InvalidSpecError && /"\$dynamicRef" at \/items\/\$dynamicRef/.test(error.message),
  );
});

Deno.test("a fallback schema that applies itself again to the same value fails as a costly schema, not as the value's fault", async () => {
  // With a `$id`, which draft-04 ignores and draft-07 reads, a draft-04 schema is not compiled as draft-07: the
  // fallback runs it.
  const looping = compileSchema({ $schema: "http://json-schema.org/draft-04/schema#", $id: "urn:loop", $ref: "#" });
  assert.equal(looping.engine, "fallback");
  await looping.loading;
  assert.throws(() => looping.validate(1), (error: unknown) => {
    assert.ok(error instanceof SchemaBudgetError);
    assert.match(error.message, /deeper than the call stack allows/);
    return true;
  });
  // The compiled validator refuses such a schema at once, of its own drafts or of one it compiles as the nearer.
  assert.throws(() => compileSchema({ $ref: "#" }), InvalidSpecError);
  assert.throws(
    () => compileSchema({ $schema: "http://json-schema.org/draft-04/schema#", $ref: "#" }),
    InvalidSpecError,
  );
});

Deno.test("compileSchema() treats format as an annotation unless asked to assert it, on either path", async () => {
  const schema: JsonSchema = { type: "string", format: "date" };
  assert.deepEqual(compileSchema(schema).validate("not a date"), { ok: true });
  const asserting = compileSchema(schema, { formats: "assert" });
  // The scanners come with dyn's compileSchema: it validates at once.
  assert.equal(asserting.loading, undefined);
  const asserted = asserting.validate("not a date");
  assert.equal(asserted.ok === false && asserted.diagnostics[0].keyword, "format");
  assert.deepEqual(asserting.validate("2026-12-01"), { ok: true });
  // Asked to assert formats, a schema that holds none needs no scanners.
  assert.equal(compileSchema({ type: "string" }, { formats: "assert" }).loading, undefined);
  // The fallback (cfworker) always asserts formats, so annotate strips them from its copy.
  const draft4 = { $schema: "http://json-schema.org/draft-04/schema#", type: "string", format: "date" };
  await compileSchema(draft4).loading;
  assert.deepEqual(compileSchema(draft4).validate("not a date"), { ok: true });
  assert.equal(compileSchema(draft4, { formats: "assert" }).validate("not a date").ok, false);
  // A format neither validator asserts is refused rather than silently accepted.
  assert.throws(() => compileSchema({ type: "string", format: "idn-email" }, { formats: "assert" }), InvalidSpecError);
});

Deno.test("compileSchema() with an engine other than RegExp never uses the fallback: older drafts compile as the nearest", async () => {
  const draft4 = (extra: Record<string, unknown>) => ({
    $schema: "http://json-schema.org/draft-04/schema#",
    type: "object",
    properties: { a: { type: "string", ...extra } },
  });
  for (const extra of [{ pattern: "^a+$" }, { format: "email" }, { enum: [{ pattern: "x" }] }]) {
    // With a `$id`, which draft-04 ignores and draft-07 reads, a host's schema runs on the fallback and an untrusted
    // one is refused.
    assert.equal(compileSchema({ ...draft4(extra), $id: "urn:a" }, { formats: "assert" }).engine, "fallback");
    assert.throws(
      () => compileSchema({ ...draft4(extra), $id: "urn:a" }, { patterns: linearPatterns }),
      (error) =>
        error instanceof InvalidSpecError && /"\$id" at the root means something else there/.test(error.message),
    );
    assert.equal(compileSchema(draft4(extra), { formats: "assert" }).engine, "compiled");
    const untrusted = compileSchema(draft4(extra), { patterns: linearPatterns, formats: "assert" });
    assert.equal(untrusted.engine, "compiled");
    assert.equal(untrusted.draft, "4");
    await untrusted.loading;
    assert.equal(untrusted.validate({ a: "b" }).ok, false);
  }
  // What only the fallback implements is refused, pattern or not.
  const recursive = { $recursiveAnchor: true, type: "object", additionalProperties: { $recursiveRef: "#" } };
  assert.equal(compileSchema(recursive).engine, "fallback");
  assert.throws(
    () => compileSchema(recursive, { patterns: linearPatterns }),
    (error) => error instanceof InvalidSpecError && error.message.includes("which has no step budget"),
  );
});

Deno.test("compileSchema() with linearPatterns compiles expressible patterns and refuses the rest, naming the pattern", () => {
  const schema = (pattern: string): JsonSchema => ({ type: "string", pattern });
  const compiled = compileSchema(schema("^(a+)+$"), { patterns: linearPatterns });
  assert.equal(compiled.engine, "compiled");
  assert.equal(compiled.validate(`${"a".repeat(40)}!`).ok, false);
  assert.throws(
    () => compileSchema(schema("(?<=a)b"), { patterns: linearPatterns }),
    (error) => error instanceof InvalidSpecError && error.message.includes('the pattern "(?<=a)b" at /pattern'),
  );
  // The host's own schemas keep RegExp, lookarounds included.
  assert.equal(compileSchema(schema("(?<=a)b")).engine, "compiled");
});

Deno.test("compileSchema() reads a 2019-09 contains as evaluating no item for unevaluatedItems, as that draft says", () => {
  const draft = "https://json-schema.org/draft/2019-09/schema";
  const strings = compileSchema({ $schema: draft, contains: { type: "string" }, unevaluatedItems: false });
  assert.equal(strings.engine, "compiled");
  assert.equal(strings.validate(["a"]).ok, false);
  assert.equal(strings.validate([]).ok, false);
  assert.equal(strings.validate(5).ok, true);
  const nested = compileSchema({ $schema: draft, allOf: [{ contains: { type: "string" } }], unevaluatedItems: false });
  assert.equal(nested.validate(["a", "b"]).ok, false);
  const typed = compileSchema({ $schema: draft, contains: { const: 1 }, unevaluatedItems: { type: "string" } });
  // The 1 that contains needs is never evaluated: unevaluatedItems refuses it, so no array passes.
  assert.deepEqual([typed.validate([1]).ok, typed.validate(["x", 1]).ok], [false, false]);
  // 2020-12's contains evaluates the items it matches.
  assert.equal(compileSchema({ contains: { type: "string" }, unevaluatedItems: false }).validate(["a"]).ok, true);
});

Deno.test("format uri, asserted, takes an IPvFuture host as RFC 3986 writes it, and no malformed one", async () => {
  const uri = compileSchema({ format: "uri" }, { formats: "assert" });
  await uri.loading;
  for (const text of ["http://[v1.fe]/", "http://[V1F.a:b]:80/x", "http://[::1]/"]) {
    assert.equal(uri.validate(text).ok, true, text);
  }
  for (const text of ["http://[v.fe]/", "http://[v1.]/", "http://[v1.f@e]/", "http://[v1.f%20]/", "http://[vg.fe]/"]) {
    assert.equal(uri.validate(text).ok, false, text);
  }
});
