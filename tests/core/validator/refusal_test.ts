// What compileValidator refuses, with which kind and message.

import assert from "node:assert/strict";
import { compileValidator } from "./_compile_validator.ts";
import { checkValidator } from "../../../src/core/schema/validator/_checked.ts";
import { buildValidator } from "../../../src/core/schema/validator/_build.ts";
import { SchemaRefusal } from "../../../src/core/schema/validator/refusal.ts";
import { FORMATS } from "../../../src/core/schema/validator/_formats.ts";
import { ASSERTED_FORMATS, STANDARD_FORMATS } from "../../../src/core/schema/validator/_format_names.ts";

function refusal(schema: unknown, options = {}): SchemaRefusal {
  try {
    compileValidator(schema, options);
  } catch (error) {
    if (error instanceof SchemaRefusal) return error;
    throw error;
  }
  assert.fail(`expected a refusal of ${JSON.stringify(schema)}`);
}

Deno.test("compileValidator() refuses malformed keyword values as invalid, naming keyword, pointer and value", () => {
  const cases: [unknown, string][] = [
    [
      { enum: 5 },
      'Cannot compile the schema as "enum" at /enum must be an array: current value is 5',
    ],
    [
      { allOf: 5 },
      'Cannot compile the schema as "allOf" at /allOf must be a non-empty array of schemas: current value is 5',
    ],
    [
      { required: "name" },
      'Cannot compile the schema as "required" at /required must be an array of distinct strings: current value is "name"',
    ],
    [
      { properties: { a: { type: "strnig" } } },
      'Cannot compile the schema as "type" at /properties/a/type must be one of "null", "boolean", "object", "array", "number", "string", "integer" or an array of them: current value is "strnig"',
    ],
    [
      { minimum: "1" },
      'Cannot compile the schema as "minimum" at /minimum must be a number: current value is "1"',
    ],
    [
      { exclusiveMinimum: true, minimum: 1 },
      'Cannot compile the schema as "exclusiveMinimum" at /exclusiveMinimum must be a number (the boolean form is draft-04\'s): current value is true',
    ],
    [
      { exclusiveMaximum: false },
      'Cannot compile the schema as "exclusiveMaximum" at /exclusiveMaximum must be a number (the boolean form is draft-04\'s): current value is false',
    ],
    [
      { pattern: "(" },
      'Cannot compile the schema as "pattern" at /pattern must be a regular expression (ECMA-262): current value is "("',
    ],
    [
      { patternProperties: { "[": {} } },
      'Cannot compile the schema as "patternProperties" at /patternProperties/[ must be a regular expression (ECMA-262): current value is "["',
    ],
    [
      { maxLength: -1 },
      'Cannot compile the schema as "maxLength" at /maxLength must be a non-negative integer: current value is -1',
    ],
    [
      { items: { multipleOf: 0 } },
      'Cannot compile the schema as "multipleOf" at /items/multipleOf must be a number greater than 0: current value is 0',
    ],
  ];
  for (const [schema, message] of cases) {
    const error = refusal(schema);
    assert.ok(error instanceof TypeError);
    assert.equal(error.kind, "invalid", message);
    assert.equal(error.reason, "malformed", message);
    assert.equal(error.message, message);
  }
});

Deno.test("compileValidator() refuses a schema that is neither an object nor a boolean", () => {
  const error = refusal({ properties: { a: 5 } });
  assert.equal(error.kind, "invalid");
  assert.equal(error.pointer, "/properties/a");
  assert.equal(
    error.message,
    "Cannot compile the schema as the schema at /properties/a must be an object or a boolean: current value is 5",
  );
});

Deno.test("compileValidator() refuses what it does not implement as unsupported, naming keyword and pointer", () => {
  const cases: [unknown, string, string][] = [
    // Draft-07 has no dynamic references: the schema was written for another draft.
    [
      { $schema: "http://json-schema.org/draft-07/schema#", items: { $dynamicRef: "#x" } },
      "$dynamicRef",
      "/items/$dynamicRef",
    ],
    [{ items: { $recursiveRef: "#" } }, "$recursiveRef", "/items/$recursiveRef"],
    [{ $schema: "http://json-schema.org/draft-04/schema#" }, "$schema", "/$schema"],
    [{ $ref: "https://json-schema.org/draft/2020-12/schema" }, "$ref", "/$ref"],
  ];
  for (const [schema, keyword, pointer] of cases) {
    const error = refusal(schema);
    assert.equal(error.kind, "unsupported", error.message);
    assert.equal(error.keyword, keyword);
    assert.equal(error.pointer, pointer);
  }
  const format = refusal({ format: "idn-email" }, { formats: "assert" });
  assert.equal(format.kind, "unsupported");
  assert.equal(format.reason, "format");
  // A pattern valid only without the `u` flag may suit another validator.
  assert.equal(refusal({ pattern: "\\_" }).kind, "unsupported");
});

Deno.test("compileValidator() refuses a $ref into its own document that names nothing as invalid", () => {
  const error = refusal({ $ref: "#/$defs/missing" });
  assert.equal(error.kind, "invalid");
  assert.equal(error.reason, "reference");
  assert.equal(error.pointer, "/$ref");
});

Deno.test("compileValidator() refuses two schemas named by one URI or anchor as invalid, naming both", () => {
  const cases: [unknown, Record<string, unknown> | undefined, string, string][] = [
    [
      { $defs: { a: { $id: "https://example.com/a", type: "string" }, b: { $id: "https://example.com/a" } } },
      undefined,
      "/$defs/b/$id",
      'Cannot compile the schema as /$defs/b/$id names a schema that /$defs/a names already: current value is "https://example.com/a"',
    ],
    [
      { $defs: { a: { $anchor: "item", type: "string" }, b: { $anchor: "item", type: "number" } } },
      undefined,
      "/$defs/b/$anchor",
      'Cannot compile the schema as /$defs/b/$anchor names a schema that /$defs/a names already: current value is "#item"',
    ],
    [
      { $schema: "http://json-schema.org/draft-07/schema#", definitions: { a: { $id: "#item" }, b: { $id: "#item" } } },
      undefined,
      "/definitions/b/$id",
      'Cannot compile the schema as /definitions/b/$id names a schema that /definitions/a names already: current value is "#item"',
    ],
    [
      { $id: "https://example.com/tree", items: { $ref: "https://example.com/tree" } },
      { "https://example.com/tree": { type: "object" } },
      "/$id",
      'Cannot compile the schema as /$id names a schema that https://example.com/tree# names already: current value is "https://example.com/tree"',
    ],
  ];
  for (const [schema, remotes, pointer, message] of cases) {
    const error = refusal(schema, { remotes });
    assert.equal(error.kind, "invalid");
    assert.equal(error.reason, "duplicate");
    assert.equal(error.pointer, pointer);
    assert.equal(error.message, message);
  }
  // One schema reached twice, and one name in two resources, are no conflict.
  const shared = { type: "string" };
  assert.equal(compileValidator({ $defs: { a: shared, b: shared }, $ref: "#/$defs/a" }).isValid("x"), true);
  const twoResources = {
    $defs: {
      a: { $id: "https://example.com/a", $anchor: "item" },
      b: { $id: "https://example.com/b", $anchor: "item" },
    },
  };
  assert.equal(compileValidator(twoResources).isValid(1), true);
  // A remote of an older draft may name an anchor with a fragment alone in "$id": it does not rename the remote.
  const remotes = {
    "https://example.com/old.json": { type: "object", definitions: { d: { $id: "#d", type: "integer" } } },
  };
  const throughRemote = compileValidator({ $ref: "https://example.com/old.json" }, { remotes });
  assert.equal(throughRemote.isValid({}), true);
  assert.equal(throughRemote.isValid(5), false);
});

Deno.test("compileValidator() ignores keywords that are not JSON Schema keywords", () => {
  const validator = compileValidator({ type: "string", "x-widget": { $ref: "#/nowhere" }, nullable: true });
  assert.equal(validator.isValid("a"), true);
  assert.equal(validator.isValid(null), false);
});

Deno.test("compileValidator() ignores format unless asked to assert it", () => {
  assert.equal(compileValidator({ format: "email" }).isValid("nope"), true);
  const asserting = compileValidator({ format: "email" }, { formats: "assert", scanners: FORMATS });
  assert.equal(asserting.isValid("nope"), false);
  assert.equal(asserting.isValid("a@example.com"), true);
  assert.equal(compileValidator({ format: "x-custom" }, { formats: "assert" }).isValid("any"), true);
  // A name every object inherits is no format either.
  assert.equal(compileValidator({ format: "hasOwnProperty" }, { formats: "assert" }).isValid("any"), true);
});

Deno.test("compileValidator() reads the draft from $schema and draft-07 ignores $ref siblings", () => {
  const schema = {
    $schema: "http://json-schema.org/draft-07/schema#",
    definitions: { s: {} },
    $ref: "#/definitions/s",
    type: "number",
  };
  const validator = compileValidator(schema);
  assert.equal(validator.draft, "7");
  assert.equal(validator.isValid("not a number"), true);
  assert.equal(compileValidator(schema, { draft: "2020-12" }).isValid("not a number"), false);
});

Deno.test("compileValidator() resolves $ref through remotes, $id bases and anchors, never fetching", () => {
  const validator = compileValidator(
    {
      $id: "https://example.test/root.json",
      properties: {
        a: { $ref: "item.json" },
        b: { $ref: "#name" },
        c: { $ref: "https://remote.test/defs.json#/$defs/positive" },
        d: { $ref: "#/$defs/a~1b%25" },
      },
      $defs: {
        item: { $id: "item.json", type: "string" },
        named: { $anchor: "name", type: "boolean" },
        "a/b%": { const: 3 },
      },
    },
    { remotes: { "https://remote.test/defs.json": { $defs: { positive: { exclusiveMinimum: 0 } } } } },
  );
  assert.equal(validator.isValid({ a: "x", b: true, c: 1, d: 3 }), true);
  assert.equal(validator.isValid({ a: 1 }), false);
  assert.equal(validator.isValid({ b: "x" }), false);
  assert.equal(validator.isValid({ c: 0 }), false);
  assert.equal(validator.isValid({ d: 4 }), false);
});

Deno.test("the asserted format names are exactly the formats with a scanner, each a format the specification names", () => {
  assert.deepEqual([...ASSERTED_FORMATS].sort(), Object.keys(FORMATS).sort());
  for (const name of ASSERTED_FORMATS) assert.ok(STANDARD_FORMATS.has(name), name);
});

Deno.test("checkValidator() says whether a schema asserts a format, and building it needs the scanners then", () => {
  const checked = checkValidator({ properties: { at: { format: "date-time" } } }, { formats: "assert" });
  assert.equal(checked.assertsFormats, true);
  assert.throws(() => buildValidator(checked), TypeError);
  assert.equal(buildValidator(checked, FORMATS).isValid({ at: "yesterday" }), false);
  assert.equal(checkValidator({ format: "date-time" }).assertsFormats, false);
  assert.equal(checkValidator({ format: "x-custom" }, { formats: "assert" }).assertsFormats, false);
});
