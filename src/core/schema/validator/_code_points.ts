// How JSON Schema measures a string: in code points, not UTF-16 units. Its own
// file because both the keyword parts and the leaf schemas count them.

import { charge, type Runtime } from "./_runtime.ts";

/** Counting takes about a nanosecond a UTF-16 unit, more before the code is optimised: a validator step for every 8. */
const UNITS_PER_STEP = 8;

/** The length of a string in code points, as JSON Schema counts it; the count is charged to the validation first. */
export function codePoints(text: string, runtime: Runtime): number {
  charge(runtime, text.length / UNITS_PER_STEP);
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}
