// checkJsonValue() decides in one lean pass and walks again only to explain a
// refusal; these pin the lean pass to the exact rules.

import assert from "node:assert/strict";
import { checkJsonValue } from "../../../dyn.ts";

const utf8 = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

Deno.test("checkJsonValue() counts integers of every magnitude exactly, to the byte", () => {
  const numbers = [0, -0, 7, -7, 1e21, -1e21, 1e22, 2 ** 53, -(2 ** 53), 0.5, -1.5e-7, 123e-20, Number.MAX_VALUE];
  // The longest texts a number has: fixed notation just above 1e-7, exponents near the ends of the range.
  numbers.push(-0.0000010398850652638962, 0.0000012345678901234567, -2.2250738585072014e-308, -Number.MAX_VALUE);
  for (let power = 1; power <= 21; power++) {
    numbers.push(10 ** power, 10 ** power - 1, -(10 ** power), -(10 ** power) + 1);
  }
  for (const n of numbers) {
    const bytes = utf8([n]);
    assert.equal(checkJsonValue([n], { maxBytes: bytes, maxDepth: 2 }), undefined, `${n} in ${bytes} bytes`);
    assert.equal(checkJsonValue([n], { maxBytes: bytes - 1, maxDepth: 2 })?.keyword, "maxBytes", `${n} over`);
  }
});

Deno.test("checkJsonValue() still names the first problem and its path when the lean pass refuses a value", () => {
  const value = { ok: [1, 2, { fine: "yes" }], bad: [{ when: new Date(0) }] };
  assert.deepEqual(
    { keyword: checkJsonValue(value)?.keyword, path: checkJsonValue(value)?.path },
    { keyword: "json", path: "/bad/0/when" },
  );
  const shared = { leaf: "x" };
  assert.equal(checkJsonValue({ a: shared, b: [shared, shared] }), undefined);
});
