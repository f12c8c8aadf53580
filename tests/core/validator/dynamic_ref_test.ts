// Draft 2020-12's dynamic references, compiled: a `$dynamicRef` whose target
// is a `$dynamicAnchor` resolves to the outermost schema resource in the
// dynamic scope with an anchor of that name; any other acts as a `$ref`.

import assert from "node:assert/strict";
import { compileValidator } from "./_compile_validator.ts";
import { SchemaBudgetError } from "../../../src/core/schema/validator/budget.ts";

const TREE_URI = "https://salvor.test/tree";
/** An extensible tree: each child is whatever schema extends it. */
const TREE = {
  $id: TREE_URI,
  $dynamicAnchor: "node",
  type: "object",
  properties: { data: true, children: { type: "array", items: { $dynamicRef: "#node" } } },
};
/** The tree with no property but its own, at every level. */
const STRICT_TREE = {
  $id: "https://salvor.test/strict-tree",
  $dynamicAnchor: "node",
  $ref: "tree",
  unevaluatedProperties: false,
};

Deno.test("a $dynamicRef to a $dynamicAnchor resolves to the outermost resource in scope with that anchor", () => {
  const remotes = { [TREE_URI]: TREE };
  const misspelled = { children: [{ daat: 1 }] };
  // The tree alone takes any property, at any level.
  assert.equal(compileValidator(TREE).isValid(misspelled), true);
  const strict = compileValidator(STRICT_TREE, { remotes });
  assert.equal(strict.isValid({ children: [{ data: 1, children: [{ data: 2 }] }] }), true);
  assert.equal(strict.isValid(misspelled), false);
  assert.equal(strict.isValid({ children: [{ children: [{ daat: 1 }] }] }), false);
  // The diagnostics point at the misspelled property, two resources down, where the strict tree refused it.
  assert.deepEqual(strict.diagnose({ data: 1, children: [{ data: 2, daat: 1 }] }), [
    { path: "/children/0/daat", keyword: "unevaluatedProperties", message: 'Property "daat" is not allowed.' },
  ]);
});

Deno.test("a $dynamicRef whose target is a plain $anchor, or a pointer, acts as a $ref", () => {
  const plainAnchor = {
    $id: "https://salvor.test/outer",
    $dynamicAnchor: "item",
    type: "array",
    items: { $ref: "inner" },
    $defs: {
      inner: {
        $id: "inner",
        $defs: { item: { $anchor: "item", type: "string" } },
        items: { $dynamicRef: "#item" },
      },
    },
  };
  // The outer resource's $dynamicAnchor "item" is in scope, but "#item" names a plain $anchor: strings it is.
  const anchored = compileValidator(plainAnchor);
  assert.equal(anchored.isValid([["a"]]), true);
  assert.equal(anchored.isValid([[1]]), false);
  const pointer = compileValidator({
    $dynamicAnchor: "item",
    $defs: { item: { type: "string" } },
    items: { $dynamicRef: "#/$defs/item" },
  });
  assert.equal(pointer.isValid(["a"]), true);
  assert.equal(pointer.isValid([1]), false);
});

Deno.test("a $dynamicAnchor in a resource the schema never enters is not used, nor checked", () => {
  const remotes = {
    [TREE_URI]: TREE,
    // Registered, never referred to: a draft the validator does not compile, with an anchor of the same name.
    "https://salvor.test/other": {
      $schema: "https://json-schema.org/draft/2019-09/schema",
      $id: "https://salvor.test/other",
      $dynamicAnchor: "node",
      $recursiveAnchor: true,
      type: "string",
    },
  };
  const strict = compileValidator(STRICT_TREE, { remotes });
  assert.equal(strict.isValid({ children: [{ data: 1 }] }), true);
  assert.equal(strict.isValid({ children: [{ daat: 1 }] }), false);
});

Deno.test("a validation stopped over budget leaves no resource in the dynamic scope of the next", () => {
  const remotes = { [TREE_URI]: TREE, "https://salvor.test/strict-tree": STRICT_TREE };
  // Two ways into the tree: through the strict tree, and straight in, where any property goes.
  const either = compileValidator({
    type: "object",
    properties: { strict: { $ref: "https://salvor.test/strict-tree" }, loose: { $ref: TREE_URI } },
  }, { remotes, budget: { stepsPerValue: 200 } });
  const misspelled = { children: [{ daat: 1 }] };
  assert.equal(either.isValid({ loose: misspelled }), true);
  let deep: Record<string, unknown> = { data: 0 };
  for (let level = 1; level < 30; level++) deep = { data: level, children: [deep] };
  assert.throws(() => either.isValid({ strict: deep }), SchemaBudgetError);
  // The stopped validation was deep inside the strict tree; left in the scope, it would make the loose tree strict.
  assert.equal(either.isValid({ loose: misspelled }), true);
  assert.deepEqual(either.diagnose({ loose: misspelled }), []);
  assert.equal(either.isValid({ strict: misspelled }), false);
});
