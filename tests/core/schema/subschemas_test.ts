import assert from "node:assert/strict";
import { walkReachable } from "../../../src/core/schema/_subschemas.ts";

Deno.test("walkReachable() follows a #/ reference into a member that is no keyword, a token decoded as a reference is", () => {
  const target = { if: true };
  const other = { then: true };
  const document = {
    properties: { a: { $ref: "#/x%2Fy" }, c: { $ref: "#/x/y" }, d: { $ref: "#/%E0" } },
    "x/y": target,
    x: { y: other },
  };
  const seen = new Map<object, string>();
  walkReachable(document, (node, path) => seen.set(node, path));
  // `%2F` is a slash within the key, as `~1` would be; `#/x/y` steps into `x`, then `y`; a malformed token reaches
  // nothing.
  assert.equal(seen.get(target), "/x~1y");
  assert.equal(seen.get(other), "/x/y");
  assert.equal(seen.size, 6);
});
