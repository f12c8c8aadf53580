// Which untrusted patterns run on the built-in RegExp: those whose
// backtracking is bounded on every text, and no other.

import assert from "node:assert/strict";
import { backtrackingSteps, MAX_BACKTRACKING_STEPS } from "../../../src/core/schema/validator/_backtracking.ts";
import { linearPatterns } from "../../../src/core/schema/validator/linear_patterns.ts";

Deno.test("backtrackingSteps() bounds a start-anchored chain of single characters with bounded quantifiers", () => {
  const bounded: [string, number][] = [
    ["^\\d{4}-\\d{2}-\\d{2}$", 11],
    ["^[A-Z][A-Z0-9]{1,9}$", 91],
    ["^[a-z][a-z0-9._-]{1,31}$", 993],
    ["^https:\\/\\/", 9],
    ["^[a-z]{0,7}[a-z]{0,7}!", 632],
    ["^\\p{L}{1,20}$", 420],
    ["^\\u{1F600}{1,3}?$", 12],
    ["^😀{2}$", 3],
    ["^[\\]a]{2,4}x?$", 24],
    ["^[^]{0,5}$", 36],
    ["^[]$", 2],
  ];
  for (const [source, steps] of bounded) {
    assert.equal(backtrackingSteps(source), steps, source);
    assert.ok(steps <= MAX_BACKTRACKING_STEPS);
  }
});

Deno.test("backtrackingSteps() gives no bound to a group, an alternation, an unbounded quantifier, no anchor, an assertion, a backreference or too many counts", () => {
  for (
    const source of [
      "^(a+)+$",
      "^(ab){2}$",
      "^a|b$",
      "^a*$",
      "^a+$",
      "^a{2,}$",
      "a{1,3}",
      "[a-z]",
      "^a$b",
      "^a^",
      "^\\bfoo",
      "^(a)\\1$",
      "^(?=a)a",
      "^[a-z]{0,15}[a-z]{0,15}!",
      "^a{0,2000}$",
    ]
  ) {
    assert.equal(backtrackingSteps(source), undefined, source);
  }
});

Deno.test("linearPatterns runs a bounded pattern on the built-in RegExp and any other on re2js, with one verdict", () => {
  const inputs = ["", "a", "2026-12-01", "dana.k", "A".repeat(40), `${"a".repeat(30)}!`, "é😀"];
  for (
    const source of ["^\\d{4}-\\d{2}-\\d{2}$", "^[a-z][a-z0-9._-]{1,31}$", "^(a+)+$", "^[a-z]+!", "^é😀{0,2}$"]
  ) {
    const engine = linearPatterns.compile(source);
    assert.equal(engine instanceof RegExp, backtrackingSteps(source) !== undefined, source);
    const native = new RegExp(source, "u");
    for (const input of inputs) assert.equal(engine.test(input), native.test(input), `${source} on ${input}`);
  }
});
