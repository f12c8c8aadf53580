// Each cfworker deviation the differential fuzz corrects for, pinned on cases
// the specification decides: cfworker's verdict is wrong, the compiled one
// right, and the fuzz's correction gives cfworker the right answer there.

import assert from "node:assert/strict";
import { Validator } from "@cfworker/json-schema";
import { compileValidator } from "./_compile_validator.ts";
import { compileFallback } from "../../../src/core/schema/_cfworker.ts";
import {
  isUnindexedTrigger,
  LATER_KEYWORDS,
  oracleView,
  SHARED_ANNOTATIONS,
  withoutSharedUnevaluated,
} from "./_cfworker_deviations.ts";

type Draft = "2020-12" | "7";

/** cfworker as the fuzz runs it: through the fallback wrapper, on the corrected schema. */
function corrected(schema: unknown, draft: Draft, value: unknown): boolean {
  return compileFallback(oracleView(schema, draft), draft, {}, false)(value).ok;
}

function raw(schema: unknown, draft: Draft, value: unknown): boolean {
  return new Validator(structuredClone(schema) as never, draft, false).validate(value).valid;
}

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

// One case a keyword: draft-07 does not define it, so the value is valid.
const LATER_CASES: Readonly<Record<string, readonly [schema: Record<string, unknown>, value: unknown]>> = {
  prefixItems: [{ prefixItems: [{ type: "string" }] }, [1]],
  minContains: [{ contains: { const: 1 }, minContains: 2 }, [1]],
  maxContains: [{ contains: { const: 1 }, maxContains: 1 }, [1, 1]],
  dependentRequired: [{ dependentRequired: { a: ["b"] } }, { a: 1 }],
  dependentSchemas: [{ dependentSchemas: { a: false } }, { a: 1 }],
  unevaluatedProperties: [{ unevaluatedProperties: false }, { a: 1 }],
  unevaluatedItems: [{ unevaluatedItems: false }, [1]],
};

Deno.test("cfworker applies later-draft keywords to a draft-07 schema; the compiled validator ignores them", () => {
  assert.deepEqual(Object.keys(LATER_CASES).sort(), [...LATER_KEYWORDS].sort());
  for (const [keyword, [body, value]] of Object.entries(LATER_CASES)) {
    const schema = { $schema: DRAFT_07, ...body };
    assert.equal(raw(schema, "7", value), false, `cfworker applies ${keyword}`);
    assert.equal(compileValidator(schema).isValid(value), true, `${keyword} is no draft-07 keyword`);
    assert.equal(corrected(schema, "7", value), true, `${keyword} is removed for cfworker`);
    // Under 2020-12 the keyword applies, and the correction leaves it alone.
    assert.equal(compileValidator(body).isValid(value), false, `${keyword} applies in 2020-12`);
    assert.equal(corrected(body, "2020-12", value), false, `${keyword} is kept for cfworker in 2020-12`);
  }
});

Deno.test("cfworker cannot resolve a $ref in a dependencies entry named like a data keyword or a prototype member", () => {
  for (const trigger of ["constructor", "toString", "type", "enum"]) {
    assert.equal(isUnindexedTrigger(trigger), true, trigger);
    const schema = {
      $schema: DRAFT_07,
      dependencies: { [trigger]: { $ref: "#/definitions/z" } },
      definitions: { z: { required: ["z"] } },
    };
    assert.throws(() => raw(schema, "7", { [trigger]: 1 }), /Unresolved \$ref/);
    const compiled = compileValidator(schema);
    for (
      const [value, valid] of [[{ [trigger]: 1 }, false], [{ [trigger]: 1, z: 1 }, true], [{ z: 1 }, true]] as const
    ) {
      assert.equal(compiled.isValid(value), valid, `${trigger}: ${JSON.stringify(value)}`);
      assert.equal(corrected(schema, "7", value), valid, `${trigger} rewritten for cfworker: ${JSON.stringify(value)}`);
    }
    // An array of names is data, not a schema: nothing to index and nothing rewritten.
    const names = { $schema: DRAFT_07, dependencies: { [trigger]: ["z"] } };
    assert.deepEqual(oracleView(names, "7"), names);
  }
  assert.equal(isUnindexedTrigger("a"), false);
});

// In-place subschemas whose unevaluated keyword cfworker lets see its parent's
// annotations. 2020-12 (core, section 11) scopes unevaluatedProperties and
// unevaluatedItems to the keywords of their own schema object and its
// subschemas, so each value is invalid: nothing in the subschema evaluated it.
const LEAKS: readonly [where: string, schema: Record<string, unknown>, value: unknown][] = [
  ["then, after anyOf", {
    anyOf: [{ properties: { a: true } }],
    if: true,
    then: { unevaluatedProperties: false },
  }, { a: 1 }],
  ["dependentSchemas, after allOf", {
    allOf: [{ properties: { a: true } }],
    dependentSchemas: { a: { unevaluatedProperties: false } },
  }, { a: 1 }],
  ["oneOf, after $ref", {
    $defs: { named: { properties: { a: true } } },
    $ref: "#/$defs/named",
    oneOf: [{ unevaluatedProperties: false }],
  }, { a: 1 }],
  ["else, after allOf", {
    allOf: [{ prefixItems: [true] }],
    if: false,
    else: { unevaluatedItems: false },
  }, [1]],
];

Deno.test("cfworker lets an in-place unevaluated keyword see its parent's annotations; the compiled validator does not", () => {
  for (const [where, schema, value] of LEAKS) {
    assert.equal(raw(schema, "2020-12", value), true, `cfworker leaks into ${where}`);
    assert.equal(compileValidator(schema).isValid(value), false, where);
    const { schema: without, removed } = withoutSharedUnevaluated(schema);
    assert.equal(removed, 1, `${SHARED_ANNOTATIONS.name}: ${where}`);
    // Without the keyword, the two agree again.
    assert.equal(compileValidator(without).isValid(value), corrected(without, "2020-12", value), where);
  }
});

Deno.test("an unevaluated keyword cfworker scopes right is not excused", () => {
  const scoped: readonly [schema: Record<string, unknown>, value: unknown][] = [
    // At the root, where everything the schema evaluated counts.
    [{ properties: { a: true }, unevaluatedProperties: false }, { a: 1, b: 1 }],
    // Cousins in allOf: neither sees the other (the suite's "can't see inside cousins").
    [{ allOf: [{ properties: { a: true } }, { unevaluatedProperties: false }] }, { a: 1 }],
    // Below a property, a new value starts from nothing.
    [{ anyOf: [{ properties: { a: true } }], properties: { a: { unevaluatedProperties: false } } }, { a: { b: 1 } }],
    // `if` and `not` start from nothing too.
    [{ anyOf: [{ properties: { a: true } }], not: { unevaluatedProperties: false } }, { a: 1 }],
  ];
  for (const [schema, value] of scoped) {
    assert.equal(withoutSharedUnevaluated(schema).removed, 0, JSON.stringify(schema));
    assert.equal(raw(schema, "2020-12", value), compileValidator(schema).isValid(value), JSON.stringify(schema));
  }
});
