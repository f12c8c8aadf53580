// Which untrusted patterns run on the built-in RegExp: those whose
// backtracking is bounded, on every text, by a few steps a character, and no
// other.

import assert from "node:assert/strict";
import {
  backtrackingBound,
  MAX_BACKTRACKING_STEPS,
  MAX_STEPS_PER_CHARACTER,
} from "../../../src/core/schema/validator/_backtracking.ts";
import { linearPatterns } from "../../../src/core/schema/validator/linear_patterns.ts";
import { compileSchema } from "../../../dyn.ts";
import { InvalidSpecError } from "../../../mod.ts";

Deno.test("backtrackingBound() bounds a start-anchored chain of single characters with at most one unbounded atom", () => {
  const bounded: [string, number, number][] = [
    ["^\\d{4}-\\d{2}-\\d{2}$", 0, 11],
    ["^[A-Z][A-Z0-9]{1,9}$", 0, 91],
    ["^[a-z][a-z0-9._-]{1,31}$", 0, 993],
    ["^https:\\/\\/", 0, 9],
    ["^[a-z]{0,7}[a-z]{0,7}!", 0, 632],
    ["^\\p{L}{1,20}$", 0, 420],
    ["^\\u{1F600}{1,3}?$", 0, 12],
    ["^😀{2}$", 0, 3],
    ["^[\\]a]{2,4}x?$", 0, 24],
    ["^[^]{0,5}$", 0, 36],
    ["^[]$", 0, 2],
    ["^[a-z0-9-]+$", 2, 1],
    ["^[A-Z][A-Z0-9]{1,9}-\\d+$", 18, 100],
    ["^https?:\\/\\/.*$", 4, 14],
    ["^.*\\.json$", 7, 6],
    ["^a{2,}?b", 3, 2],
    ["^[a-z0-9]{1,20}\\d*!", 60, 440],
  ];
  for (const [source, perCharacter, fixed] of bounded) {
    assert.deepEqual(backtrackingBound(source), { perCharacter, fixed }, source);
    assert.ok(perCharacter <= MAX_STEPS_PER_CHARACTER && fixed <= MAX_BACKTRACKING_STEPS);
  }
});

Deno.test("backtrackingBound() gives no bound to a group, an alternation, two unbounded atoms, no anchor, an assertion, a backreference or too many counts", () => {
  for (
    const source of [
      "^(a+)+$",
      "^(ab){2}$",
      "^a|b$",
      "^a*a*$",
      "^\\d+-\\d+$",
      "a{1,3}",
      "[a-z]",
      "^a$b",
      "^a^",
      "^\\bfoo",
      "^(a)\\1$",
      "^(?=a)a",
      "^[a-z]{0,15}[a-z]{0,15}!",
      "^a{0,2000}$",
      "^[a-z0-9]{1,31}\\d*!",
    ]
  ) {
    assert.equal(backtrackingBound(source), undefined, source);
  }
});

Deno.test("linearPatterns runs a bounded pattern on the built-in RegExp and any other on re2js, with one verdict", () => {
  const inputs = ["", "a", "2026-12-01", "dana.k", "AUTH-42", "A".repeat(40), `${"a".repeat(12)}!`, "é😀"];
  for (
    const source of [
      "^\\d{4}-\\d{2}-\\d{2}$",
      "^[a-z][a-z0-9._-]{1,31}$",
      "^[A-Z][A-Z0-9]{1,9}-\\d+$",
      "^(a+)+$",
      "^\\d+-\\d+$",
      "^é😀{0,2}$",
    ]
  ) {
    const engine = linearPatterns.compile(source);
    // The engine shows in what a test costs: the backtracking bound over 32 on the built-in RegExp, re2js's own else.
    const bound = backtrackingBound(source);
    const cost = bound === undefined
      ? { perCharacter: 1, fixed: 10 }
      : { perCharacter: bound.perCharacter / 32, fixed: bound.fixed / 32 };
    assert.deepEqual(engine.cost, cost, source);
    const native = new RegExp(source, "u");
    for (const input of inputs) assert.equal(engine.test(input), native.test(input), `${source} on ${input}`);
  }
});

Deno.test("linearPatterns refuses a Script_Extensions property, which re2js would read as the Script, and takes a Script", () => {
  // U+0342 is of the Inherited script, and Greek by its script extensions.
  for (const source of ["^(?:\\P{scx=Greek}|xy)+$", "^(?:\\p{Script_Extensions=Greek}|xy)+$"]) {
    assert.throws(() => linearPatterns.compile(source), /Script_Extensions/, source);
  }
  const script = linearPatterns.compile("^(?:\\p{sc=Greek}|xy)+$");
  assert.deepEqual([script.test("\u0342"), script.test("\u03b1")], [false, true]);
});

Deno.test("an untrusted schema's pattern weight counts a quantifier, not a code point's escape", () => {
  for (const pattern of ["^[\\u{2000}-\\u{200A}]$", "^[\\u{10000}-\\u{10FFFF}]$"]) {
    assert.equal(
      compileSchema({ pattern }, { patterns: linearPatterns }).validate("\u2001").ok,
      pattern.includes("2000"),
    );
  }
  // A `u` after an escaped backslash is a letter, and its quantifier counts: 200,000 repetitions pass the budget.
  assert.throws(() => compileSchema({ pattern: "^a\\\\u{200000}$" }, { patterns: linearPatterns }), InvalidSpecError);
});
