// The diagnostics diagnose() gives for common failures: path, keyword, message.

import assert from "node:assert/strict";
import { compileValidator } from "./_compile_validator.ts";
import { boundDiagnostics } from "../../../src/core/common/diagnostics.ts";

const person = compileValidator({
  type: "object",
  properties: {
    name: { type: "string", minLength: 1, maxLength: 5 },
    age: { type: "integer", minimum: 0, maximum: 150 },
    tags: { type: "array", items: { type: "string" }, maxItems: 2, uniqueItems: true },
    role: { enum: ["admin", "user"] },
    "a/b": { type: "boolean" },
  },
  required: ["name", "age"],
  additionalProperties: false,
});

Deno.test("diagnose() points a missing required property at the property", () => {
  assert.deepEqual(person.diagnose({ name: "ann" }), [
    { path: "/age", keyword: "required", message: 'Missing required property "age".' },
  ]);
});

Deno.test("diagnose() names each property additionalProperties: false refuses", () => {
  assert.deepEqual(person.diagnose({ name: "ann", age: 3, extra: 1 }), [
    { path: "/extra", keyword: "additionalProperties", message: 'Property "extra" is not allowed.' },
  ]);
});

Deno.test("diagnose() reports type, bounds, lengths, enum and items at their JSON Pointers", () => {
  const found = person.diagnose({ name: "", age: 1.5, tags: ["a", 2, "a"], role: "root", "a/b": "yes" });
  assert.deepEqual(boundDiagnostics(found).diagnostics, [
    { path: "/age", keyword: "type", message: "Expected an integer but received a number." },
    { path: "/a~1b", keyword: "type", message: "Expected a boolean but received a string." },
    { path: "/name", keyword: "minLength", message: "Expected at least 1 character." },
    { path: "/role", keyword: "enum", message: 'Expected one of ["admin","user"].' },
    { path: "/tags", keyword: "maxItems", message: "Expected at most 2 items." },
    { path: "/tags", keyword: "uniqueItems", message: "Items 0 and 2 are equal; items must be unique." },
    { path: "/tags/1", keyword: "type", message: "Expected a string but received an integer." },
  ]);
  assert.deepEqual(person.diagnose({ name: "abcdef", age: 200 }), [
    { path: "/name", keyword: "maxLength", message: "Expected at most 5 characters." },
    { path: "/age", keyword: "maximum", message: "Expected a number at most 150." },
  ]);
});

Deno.test("diagnose() gives an empty list for a valid value", () => {
  assert.deepEqual(person.diagnose({ name: "ann", age: 3 }), []);
});

Deno.test("diagnose() reports unevaluatedProperties and a false schema", () => {
  const validator = compileValidator({
    allOf: [{ properties: { a: true } }],
    unevaluatedProperties: false,
  });
  assert.deepEqual(validator.diagnose({ a: 1, b: 2 }), [
    { path: "/b", keyword: "unevaluatedProperties", message: 'Property "b" is not allowed.' },
  ]);
  assert.deepEqual(compileValidator(false).diagnose(1), [
    { path: "", keyword: "false", message: "No value is allowed here." },
  ]);
});

Deno.test("diagnose() does not call a property or item unevaluated when a failing subschema it belongs to says why", () => {
  // A failed subschema gives no annotations: "a" looks unevaluated, but what is wrong is its type.
  const properties = compileValidator({
    allOf: [{ properties: { a: { type: "string" } } }],
    unevaluatedProperties: false,
  });
  assert.deepEqual(boundDiagnostics(properties.diagnose({ a: 1, b: 2 })).diagnostics, [
    { path: "/a", keyword: "type", message: "Expected a string but received an integer." },
    { path: "/b", keyword: "unevaluatedProperties", message: 'Property "b" is not allowed.' },
  ]);
  // Through a reference, with the failure deeper down.
  const nested = compileValidator({
    $ref: "#/$defs/box",
    unevaluatedProperties: false,
    $defs: { box: { properties: { inner: { properties: { n: { type: "number" } } } } } },
  });
  assert.deepEqual(nested.diagnose({ inner: { n: "x" } }), [
    { path: "/inner/n", keyword: "type", message: "Expected a number but received a string." },
  ]);
  const items = compileValidator({ allOf: [{ prefixItems: [{ type: "string" }] }], unevaluatedItems: false });
  assert.deepEqual(boundDiagnostics(items.diagnose([1, 2])).diagnostics, [
    { path: "/0", keyword: "type", message: "Expected a string but received an integer." },
    { path: "/1", keyword: "unevaluatedItems", message: "This item is not allowed." },
  ]);
});

Deno.test("diagnose() reports anyOf, oneOf, not, const and pattern failures on the value", () => {
  const validator = compileValidator({
    properties: {
      any: { anyOf: [{ type: "string" }, { type: "number" }] },
      one: { oneOf: [{ type: "number" }, { type: "integer" }] },
      not: { not: { type: "null" } },
      fixed: { const: "x" },
      code: { pattern: "^[a-z]+$" },
    },
  });
  assert.deepEqual(validator.diagnose({ any: null, one: 1, not: null, fixed: "y", code: "A" }), [
    { path: "/any", keyword: "anyOf", message: 'The value matches none of the schemas in "anyOf".' },
    {
      path: "/one",
      keyword: "oneOf",
      message: 'The value matches more than one of the schemas in "oneOf"; exactly one must match.',
    },
    { path: "/not", keyword: "not", message: 'The value must not match the schema in "not".' },
    { path: "/fixed", keyword: "const", message: 'Expected "x".' },
    { path: "/code", keyword: "pattern", message: 'Expected a string matching the pattern "^[a-z]+$".' },
  ]);
});

Deno.test("diagnose() stops at the diagnostics bound", () => {
  const validator = compileValidator({ items: { type: "string" } }, { maxDiagnostics: 64 });
  assert.equal(validator.diagnose(new Array(1000).fill(1)).length, 64);
});

Deno.test("a string property's pattern is tested inline with its lengths, on UTF-16 and code point lengths alike", () => {
  const ids = compileValidator({
    type: "object",
    properties: {
      id: { type: "string", minLength: 2, maxLength: 3, pattern: "^[a-z😀]+$" },
      // A pattern applies to strings only: an integer leaf ignores it.
      count: { type: "integer", pattern: "^x$" },
    },
    additionalProperties: false,
  });
  assert.equal(ids.isValid({ id: "ab", count: 1 }), true);
  assert.equal(ids.isValid({ id: "😀😀😀" }), true, "six UTF-16 units, three code points");
  assert.equal(ids.isValid({ id: "aB" }), false, "the lengths hold, the pattern does not");
  assert.equal(ids.isValid({ id: "😀B" }), false, "the code points hold, the pattern does not");
  assert.equal(ids.isValid({ id: "abcd" }), false);
  assert.deepEqual(ids.diagnose({ id: "aB" }), [
    { path: "/id", keyword: "pattern", message: 'Expected a string matching the pattern "^[a-z😀]+$".' },
  ]);
});

Deno.test("a closed object's keys are read in any order, a gap or an unknown key between them", () => {
  const properties = { a: { type: "integer" }, b: { type: "string" }, c: { type: "boolean" } };
  // With `type: "object"` the object is read in one fused part; without, by its keywords one by one.
  for (
    const schema of [{ type: "object", properties, additionalProperties: false }, {
      properties,
      additionalProperties: false,
    }]
  ) {
    const closed = compileValidator(schema);
    for (const value of [{ a: 1, b: "x", c: true }, { c: true, b: "x", a: 1 }, { a: 1, c: true }, { b: "x", a: 1 }]) {
      assert.equal(closed.isValid(value), true, JSON.stringify(value));
      assert.deepEqual(closed.diagnose(value), []);
    }
    for (const value of [{ a: 1, z: 0, c: true }, { c: true, z: 0, a: 1 }, { a: 1, b: "x", c: true, z: 0 }]) {
      assert.equal(closed.isValid(value), false, JSON.stringify(value));
      assert.deepEqual(closed.diagnose(value), [
        { path: "/z", keyword: "additionalProperties", message: 'Property "z" is not allowed.' },
      ]);
    }
    assert.deepEqual(boundDiagnostics(closed.diagnose({ c: 1, b: 2, a: "3" })).diagnostics.map((d) => d.path), [
      "/a",
      "/b",
      "/c",
    ]);
  }
});

Deno.test("draft-07's content keywords are asserted with the formats, and stay annotations otherwise and in 2020-12", () => {
  const schema = {
    type: "object",
    properties: {
      doc: { type: "string", contentMediaType: "application/json" },
      blob: { type: "string", contentEncoding: "base64" },
      both: { type: "string", contentEncoding: "base64", contentMediaType: "application/json" },
      picture: { type: "string", contentMediaType: "image/png" },
    },
  };
  const asserted = compileValidator(schema, { draft: "7", formats: "assert" });
  assert.equal(asserted.isValid({ doc: '{"a":1}', blob: "aGk=", both: btoa('["x"]'), picture: "anything" }), true);
  assert.deepEqual(
    boundDiagnostics(asserted.diagnose({ doc: "{a:1}", blob: "a%==", both: btoa("not json") })).diagnostics,
    [
      { path: "/blob", keyword: "contentEncoding", message: "Expected a base64-encoded string." },
      { path: "/both", keyword: "contentMediaType", message: "Expected a string holding a JSON document." },
      { path: "/doc", keyword: "contentMediaType", message: "Expected a string holding a JSON document." },
    ],
  );
  // Base64 that is not padded, or that encodes bytes that are not UTF-8, holds no JSON document.
  assert.equal(asserted.isValid({ blob: "aGk" }), false);
  assert.equal(asserted.isValid({ both: btoa("\xff") }), false);
  for (const annotated of [compileValidator(schema, { draft: "7" }), compileValidator(schema, { formats: "assert" })]) {
    assert.equal(annotated.isValid({ doc: "{a:1}", blob: "a%==", both: "?" }), true);
  }
});

Deno.test("an unevaluatedProperties alone in a subschema reports against what that subschema evaluated", () => {
  const validator = compileValidator({
    properties: { a: true },
    allOf: [{ unevaluatedProperties: false }],
    unevaluatedProperties: false,
  });
  const value = { a: 1, b: 2 };
  assert.equal(validator.isValid(value), false);
  assert.deepEqual(boundDiagnostics(validator.diagnose(value)).diagnostics.map((d) => `${d.path} ${d.keyword}`), [
    "/a unevaluatedProperties",
    "/b unevaluatedProperties",
  ]);
});
