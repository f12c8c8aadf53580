// multipleOf decides on the decimals JSON writes, not on floating point
// quotients; the differential fuzz found values that are multiples only to
// within rounding error (-92.99999999999999 of 0.3) accepted.

import assert from "node:assert/strict";
import { Validator } from "@cfworker/json-schema";
import { compileValidator } from "./_compile_validator.ts";

function verdict(divisor: number, value: number): boolean {
  return compileValidator({ multipleOf: divisor }).isValid(value);
}

const CASES: readonly [divisor: number, value: number, multiple: boolean][] = [
  [0.3, -92.99999999999999, false],
  [0.3, -93, true],
  [0.1, 0.1 + 0.2, false],
  [0.1, 0.3, true],
  [0.1, 1.1, true],
  [0.2, 0.6000000000000001, false],
  [2.5, 7.500000000000001, false],
  [2.5, 7.5, true],
  [1 / 3, 1, false],
  [0.0001, 0.0075, true],
  [0.0001, 0.00751, false],
  [1.5, 4.5, true],
  [1, 2.5, false],
  [3, 9, true],
  // Quotients past the range of doubles.
  [0.5, 1e308, true],
  [0.3, 1e308, false],
  // Subnormal values.
  [5e-324, 1e-323, true],
  [2e-323, 3e-323, false],
];

Deno.test("multipleOf refuses values that are multiples only within rounding error", () => {
  for (const [divisor, value, multiple] of CASES) {
    assert.equal(verdict(divisor, value), multiple, `${value} multipleOf ${divisor}`);
  }
});

Deno.test("multipleOf agrees with cfworker's decimal arithmetic on each case", () => {
  for (const [divisor, value, multiple] of CASES) {
    const oracle = new Validator({ multipleOf: divisor }, "2020-12", false);
    assert.equal(oracle.validate(value).valid, multiple, `${value} multipleOf ${divisor}`);
  }
});

Deno.test("multipleOf still ignores what is not a number", () => {
  const validator = compileValidator({ multipleOf: 0.1 });
  for (const value of ["0.3", null, [0.3], { a: 0.3 }]) assert.equal(validator.isValid(value), true);
});
