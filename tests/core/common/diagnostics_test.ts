import assert from "node:assert/strict";
import { fc } from "../../dev_deps.ts";
import type { Diagnostic } from "../../../mod.ts";
import { boundDiagnostics, MAX_DIAGNOSTICS } from "../../../dyn.ts";

const INDEX = /^(0|[1-9][0-9]*)$/;

/** The order the module promises: path token by token (indexes as numbers), then keyword. */
function inOrder(a: Diagnostic, b: Diagnostic): boolean {
  const left = a.path === "" ? [] : a.path.slice(1).split("/");
  const right = b.path === "" ? [] : b.path.slice(1).split("/");
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] === right[i]) continue;
    if (INDEX.test(left[i]) && INDEX.test(right[i])) return Number(left[i]) < Number(right[i]);
    return left[i] < right[i];
  }
  if (left.length !== right.length) return left.length < right.length;
  return a.keyword <= b.keyword;
}

const token = fc.oneof(
  fc.nat({ max: 120 }).map(String),
  fc.constantFrom("a", "b", "items", "name", "0a", "~0", "~1", "10x"),
);
const diagnostic = fc.record({
  path: fc.array(token, { maxLength: 4 }).map((tokens) => tokens.map((t) => `/${t}`).join("")),
  keyword: fc.constantFrom("type", "required", "minimum", "additionalProperties", "enum"),
  message: fc.constantFrom("Wrong.", "Missing.", "Too small."),
}).map((d): Diagnostic => ({ ...d }));
const key = (d: Diagnostic) => JSON.stringify([d.path, d.keyword, d.message]);

Deno.test("boundDiagnostics() keeps at most 16, sorted by path then keyword, and counts the rest", () => {
  fc.assert(
    fc.property(fc.array(diagnostic, { maxLength: 60 }), (found) => {
      const before = structuredClone(found);
      const report = boundDiagnostics(found);
      const unique = new Set(found.map(key));
      assert.equal(report.diagnostics.length, Math.min(MAX_DIAGNOSTICS, unique.size));
      assert.equal(report.omitted, unique.size - report.diagnostics.length);
      for (let i = 1; i < report.diagnostics.length; i++) {
        assert.ok(inOrder(report.diagnostics[i - 1], report.diagnostics[i]), JSON.stringify(report.diagnostics));
      }
      // The kept ones come first in that order: nothing left out sorts before the last kept.
      const last = report.diagnostics.at(-1);
      const kept = new Set(report.diagnostics.map(key));
      for (const item of found) {
        if (last && !kept.has(key(item))) assert.ok(inOrder(last, item));
      }
      assert.deepEqual(found, before);
    }),
    { numRuns: 500 },
  );
});

Deno.test("boundDiagnostics() sorts array indexes as numbers and parents before children", () => {
  const at = (path: string, keyword = "type") => ({ path, keyword, message: "Wrong." });
  const report = boundDiagnostics([
    at("/items/10"),
    at("/items/2"),
    at("/items/2/name"),
    at("/items"),
    at("", "required"),
    at("/items/2", "enum"),
    at("/alias"),
  ]);
  assert.deepEqual(report.diagnostics.map((d) => `${d.path} ${d.keyword}`), [
    " required",
    "/alias type",
    "/items type",
    "/items/2 enum",
    "/items/2 type",
    "/items/2/name type",
    "/items/10 type",
  ]);
  assert.equal(report.omitted, 0);
});

Deno.test("boundDiagnostics() drops exact repeats before counting", () => {
  const same = { path: "/a", keyword: "type", message: "Wrong." };
  const report = boundDiagnostics(Array.from({ length: 20 }, () => same));
  assert.deepEqual(report, { diagnostics: [same], omitted: 0 });
});

Deno.test("boundDiagnostics() turns 40 problems into 16 and an omitted count of 24", () => {
  const found = Array.from({ length: 40 }, (_, i) => ({ path: `/items/${39 - i}`, keyword: "type", message: "No." }));
  const report = boundDiagnostics(found);
  assert.deepEqual(report.diagnostics.map((d) => d.path), Array.from({ length: 16 }, (_, i) => `/items/${i}`));
  assert.equal(report.omitted, 24);
});
