// Differential fuzzing of `$dynamicRef`, which @cfworker/json-schema does
// not implement, through a schema that means the same without it. An
// extensible tree: a base resource whose `kids` are `{ $dynamicRef: "#node" }`
// and which is `$dynamicAnchor: "node"`, extended by the root (`$ref` to the
// base, random constraints of its own, sometimes `unevaluatedProperties:
// false`). Validated from the root, the dynamic reference resolves to the
// outermost resource in scope with that anchor: the root when it declares
// one, the base when it does not. So the static twin, whose `kids` are a
// plain `$ref` to that resource, means the same, and cfworker can judge it.
// Both the base and the root carry random schemas of the differential fuzz
// (each a resource of its own, so their references stay theirs), and the
// values are trees of values near them.

import assert from "node:assert/strict";
import { fc } from "../../dev_deps.ts";
import { compileSchema } from "../../../src/core/schema/compile_schema.ts";
import type { JsonSchema } from "../../../src/core/schema/schema.ts";
import { compileFallback } from "../../../src/core/schema/_cfworker.ts";
import { compileValidator } from "./_compile_validator.ts";
import { rootSchema } from "./_fuzz_schemas.ts";
import { valuesNear } from "./_fuzz_values.ts";
import { oracleView, SHARED_ANNOTATIONS, withoutSharedUnevaluated } from "./_cfworker_deviations.ts";

const SEED = 20_261_201;
const RUNS = 400;
const TREES_PER_SCHEMA = 6;
const ROOT = "https://fuzz.test/tree";
const BASE = "https://fuzz.test/base";

/** What varies from one tree schema to the next. */
interface TreeShape {
  /** A random schema each for the base and for the root's own constraints. */
  readonly base: Record<string, unknown>;
  readonly own: Record<string, unknown>;
  /** Whether the root declares the anchor too, so that the base's `kids` resolve to it. */
  readonly rootAnchor: boolean;
  /** Whether the root allows no property that neither it nor the base evaluated. */
  readonly strict: boolean;
}

/** A generated schema as a resource of its own, so that its `#` references stay within it. */
function resource(schema: Record<string, unknown>, id: string): Record<string, unknown> {
  const { $schema: _, ...rest } = schema;
  return { ...rest, $id: id };
}

/**
 * The tree schema: with `$dynamicRef` (`dynamic`), or its static twin, whose `kids` `$ref` the resource the dynamic
 * reference resolves to when validation starts at the root.
 */
function treeSchema(shape: TreeShape, dynamic: boolean): Record<string, unknown> {
  const kids = dynamic ? { $dynamicRef: "#node" } : { $ref: shape.rootAnchor ? ROOT : BASE };
  return {
    $id: ROOT,
    ...(dynamic && shape.rootAnchor ? { $dynamicAnchor: "node" } : {}),
    $ref: "base",
    allOf: [resource(shape.own, "own")],
    ...(shape.strict ? { unevaluatedProperties: false } : {}),
    $defs: {
      base: {
        $id: "base",
        ...(dynamic ? { $dynamicAnchor: "node" } : {}),
        properties: { kids: { type: "array", items: kids } },
        allOf: [resource(shape.base, "base-constraints")],
      },
    },
  };
}

// Often one side asks nothing, so that trees pass often enough for their kids to decide.
const constraints = fc.oneof(
  { arbitrary: fc.constant({}), weight: 1 },
  { arbitrary: rootSchema("2020-12").map(({ schema }) => schema), weight: 2 },
);

const shape: fc.Arbitrary<TreeShape> = fc.record({
  base: constraints,
  own: constraints,
  rootAnchor: fc.boolean(),
  strict: fc.boolean(),
});

/** One node's value: near the base's schema, near the root's own, or both merged when both are objects. */
function nodeValue(tree: TreeShape): fc.Arbitrary<unknown> {
  const nearBase = valuesNear({ draft: "2020-12", schema: tree.base });
  const nearOwn = valuesNear({ draft: "2020-12", schema: tree.own });
  const merged = fc.tuple(nearBase, nearOwn).map(([a, b]) => isObject(a) && isObject(b) ? { ...a, ...b } : a);
  return fc.oneof(nearBase, nearOwn, merged);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Trees two levels deep of such nodes (or of empty objects, which many schemas take, so that the kids decide), with
 * `kids` where a node is an object.
 */
function treeValue(tree: TreeShape): fc.Arbitrary<unknown> {
  const node = fc.oneof(nodeValue(tree), fc.constant({}));
  const withKids = (value: unknown, kids: unknown[]) => isObject(value) && kids.length > 0 ? { ...value, kids } : value;
  const child = fc.tuple(node, fc.array(nodeValue(tree), { maxLength: 2 })).map(([value, kids]) =>
    withKids(value, kids)
  );
  return fc.tuple(node, fc.array(child, { minLength: 1, maxLength: 3 })).map(([value, kids]) => withKids(value, kids));
}

const fuzzCase = shape.chain((tree) =>
  fc.tuple(fc.constant(tree), fc.array(treeValue(tree), { minLength: TREES_PER_SCHEMA, maxLength: TREES_PER_SCHEMA }))
);

/** cfworker's verdict on a static schema, corrected for its known deviations. */
function oracle(schema: unknown): (value: unknown) => boolean {
  const validate = compileFallback(oracleView(schema, "2020-12"), "2020-12", {}, false);
  return (value) => validate(value).ok;
}

Deno.test("$dynamicRef verdicts equal cfworker's on the static twin of random extensible trees", () => {
  const counts = { schemas: 0, rootAnchor: 0, strict: 0, valid: 0, invalid: 0, nested: 0, kidsDecide: 0, excused: 0 };
  fc.assert(
    fc.property(fuzzCase, ([tree, values]) => {
      const dynamic = treeSchema(tree, true);
      const compiled = compileSchema(dynamic as JsonSchema);
      assert.equal(compiled.engine, "compiled");
      const validator = compileValidator(dynamic);
      const twin = treeSchema(tree, false);
      // Our own static verdict must match our dynamic one: this holds whatever cfworker does.
      const staticValidator = compileValidator(twin);
      const cfworker = oracle(twin);
      const shared = withoutSharedUnevaluated(twin);
      counts.schemas++;
      if (tree.rootAnchor) counts.rootAnchor++;
      if (tree.strict) counts.strict++;
      for (const value of values) {
        const context = `${JSON.stringify(dynamic)} on ${JSON.stringify(value)}`;
        const verdict = validator.isValid(value);
        assert.equal(staticValidator.isValid(value), verdict, `static twin: ${context}`);
        assert.equal(compiled.validate(value).ok, verdict, context);
        if (verdict !== cfworker(value)) {
          // Excused only where cfworker leaks annotations, and only if all else agrees.
          assert.ok(shared.removed > 0, `verdict ${verdict} differs from cfworker's: ${context}`);
          assert.equal(
            compileValidator(withoutSharedUnevaluated(dynamic).schema).isValid(value),
            oracle(shared.schema)(value),
            `${SHARED_ANNOTATIONS.name}: ${context}`,
          );
          counts.excused++;
        }
        if (verdict) counts.valid++;
        else counts.invalid++;
        if (isObject(value) && Array.isArray(value.kids)) {
          counts.nested++;
          const { kids: _, ...alone } = value;
          if (validator.isValid(alone) !== verdict) counts.kidsDecide++;
        }
      }
    }),
    { seed: SEED, numRuns: RUNS },
  );
  const trees = counts.valid + counts.invalid;
  console.log(
    `$dynamicRef differential: ${counts.schemas} tree schemas (${counts.rootAnchor} with the root's anchor, ` +
      `${counts.strict} strict), ${trees} trees (${counts.nested} with kids, ${counts.kidsDecide} decided by them): ` +
      `${counts.valid} valid, ${counts.invalid} invalid, ${counts.excused} excused as ${SHARED_ANNOTATIONS.name}`,
  );
  // The fuzz must reach both verdicts, nested trees, and both resolutions.
  assert.ok(counts.valid > 300 && counts.invalid > 300 && counts.kidsDecide > 100, JSON.stringify(counts));
  assert.ok(counts.rootAnchor > 50 && counts.schemas - counts.rootAnchor > 50, JSON.stringify(counts));
});
