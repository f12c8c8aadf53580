import assert from "node:assert/strict";
import { showValue } from "../../../src/core/common/_show_value.ts";

Deno.test("showValue() quotes a long string by its start, as it quoted it whole, without serialising the rest", () => {
  for (const start of ["x", 'a"b\\c\n', "é😀", "\ud83d"]) {
    const text = start.repeat(200);
    const whole = JSON.stringify(text);
    assert.equal(showValue(text), `${whole.slice(0, 77)}...`, JSON.stringify(start));
  }
  assert.equal(showValue("short"), '"short"');
  // Sliced where a pair would be cut: the lone half falls past what is kept.
  assert.equal(showValue(`${"a".repeat(79)}😀tail`), `"${"a".repeat(76)}...`);
  // Serialised whole, 300 million quotes would pass the longest string there can be: they are still shown as JSON.
  assert.equal(showValue('"'.repeat(300_000_000)), `"${'\\"'.repeat(38)}...`);
  assert.equal(showValue({ a: 1 }), '{"a":1}');
});
