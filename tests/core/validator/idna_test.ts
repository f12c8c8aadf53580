// A-labels in the `hostname` format: Punycode decoded as RFC 3492 says (its
// sample strings, and everything Node.js's encoder writes), and each IDNA2008
// rule the scanner applies, on labels written with that encoder.

import assert from "node:assert/strict";
import punycode from "node:punycode";
import { fc } from "../../dev_deps.ts";
import { decodePunycode, isALabel } from "../../../src/core/schema/validator/_idna.ts";
import { FORMATS } from "../../../src/core/schema/validator/_formats.ts";

/** The A-label of a label, by Node.js's encoder. */
function aLabel(label: string): string {
  return `xn--${punycode.encode(label)}`;
}

Deno.test("decodePunycode() reads RFC 3492's sample strings", () => {
  const samples: [string, string][] = [
    [
      "egbpdaj6bu4bxfgehfvwxn",
      "\u0644\u064a\u0647\u0645\u0627\u0628\u062a\u0643\u0644\u0645\u0648\u0634\u0639\u0631\u0628\u064a\u061f",
    ],
    ["ihqwcrb4cv8a8dqg056pqjye", "\u4ed6\u4eec\u4e3a\u4ec0\u4e48\u4e0d\u8bf4\u4e2d\u6587"],
    ["3B-ww4c5e180e575a65lsy2b", "3\u5e74B\u7d44\u91d1\u516b\u5148\u751f"],
    ["-> $1.00 <--", "-> $1.00 <-"],
  ];
  for (const [encoded, decoded] of samples) {
    assert.deepEqual(decodePunycode(encoded), [...decoded].map((char) => char.codePointAt(0)), encoded);
  }
});

Deno.test("decodePunycode() decodes whatever Node.js's encoder writes", () => {
  const codePoint = fc.oneof(
    fc.integer({ min: 0x20, max: 0x7e }),
    fc.integer({ min: 0x80, max: 0xd7ff }),
    fc.integer({ min: 0xe000, max: 0x10ffff }),
  );
  fc.assert(
    fc.property(fc.array(codePoint, { minLength: 1, maxLength: 40 }), (points) => {
      assert.deepEqual(decodePunycode(punycode.encode(String.fromCodePoint(...points))), points);
    }),
    { seed: 20261201, numRuns: 2_000 },
  );
});

Deno.test("decodePunycode() refuses what is not Punycode, and overflow, without throwing", () => {
  for (
    const text of [
      "X", // a digit that asks for more digits
      "a-b!", // not a Punycode digit
      "bücher", // a code point that is not basic before the delimiter
      "9".repeat(59), // deltas past 2^31
      "z".repeat(59),
      "aaaa-", // decodes to ASCII alone: a code point under 0x80 is never encoded
    ]
  ) {
    const decoded = decodePunycode(text);
    if (decoded !== undefined) assert.ok(decoded.every((point) => point <= 0x10ffff), text);
  }
  assert.equal(decodePunycode("X"), undefined);
  assert.equal(decodePunycode("a-b!"), undefined);
  assert.equal(decodePunycode("bücher"), undefined);
  assert.equal(decodePunycode("9".repeat(59)), undefined);
});

Deno.test("isALabel() accepts labels of letters, digits and marks, in lower case and NFC", () => {
  for (
    const label of [
      "bücher",
      "例え",
      "테스트",
      "ελληνικά",
      "пример",
      "straße",
      "ς",
      "۽۾",
      "l·l",
      "͵α",
      "א׳",
      "ア・",
      "٠١",
      "۰۱",
    ]
  ) {
    assert.equal(isALabel(aLabel(label)), true, label);
  }
  assert.equal(FORMATS.hostname(`www.${aLabel("bücher")}.example`), true);
  assert.equal(FORMATS.hostname(aLabel("bücher").toUpperCase()), true, "XN-- and Punycode digits in any case");
});

Deno.test("isALabel() refuses what IDNA2008 disallows", () => {
  const refused: [string, string][] = [
    ["bÜcher", "an upper-case letter is unstable under case folding"],
    ["bu\u0308cher", "not in NFC"],
    ["\u0301a", "a combining mark first"],
    ["-bücher", "a hyphen first"],
    ["bücher-", "a hyphen last"],
    ["üb--er", "hyphens in the 3rd and 4th places"],
    ["a\u0640b\u00e9", "ARABIC TATWEEL, a disallowed exception"],
    ["\u3031\u3042", "a disallowed exception"],
    ["a\u00a0é", "a space"],
    ["é\u2665", "a symbol"],
    ["é\u1100", "an old Hangul jamo"],
    ["é\u20d0", "a combining mark for symbols"],
    ["\u00b7l", "MIDDLE DOT without an l before it"],
    ["l\u00b7", "MIDDLE DOT without an l after it"],
    ["\u0375a", "GREEK KERAIA not followed by Greek"],
    ["a\u05f3", "HEBREW GERESH not after Hebrew"],
    ["ab\u30fb", "KATAKANA MIDDLE DOT with no kana or Han"],
    ["\u0660\u06f0", "both sets of Arabic-Indic digits"],
    ["\u0915\u200d\u0937", "ZERO WIDTH JOINER after a letter, not a virama"],
    ["a\u200cb\u00e9", "ZERO WIDTH NON-JOINER between Latin letters"],
  ];
  for (const [label, why] of refused) assert.equal(isALabel(aLabel(label)), false, why);
  assert.equal(isALabel("xn--abc-"), false, "ASCII alone is no A-label");
  assert.equal(isALabel("xn--"), false);
  assert.equal(FORMATS.hostname(`www.${aLabel("l\u00b7")}.example`), false);
});

Deno.test("isALabel() reads joiners in their context: after a virama, or a non-joiner between joining letters", () => {
  assert.equal(isALabel(aLabel("\u0915\u094d\u200d\u0937")), true, "ZERO WIDTH JOINER after DEVANAGARI SIGN VIRAMA");
  assert.equal(isALabel(aLabel("\u0915\u094d\u200c\u0937")), true, "ZERO WIDTH NON-JOINER after a virama");
  assert.equal(
    isALabel(aLabel("\u0628\u064a\u200c\u0628\u064a")),
    true,
    "ZERO WIDTH NON-JOINER between Arabic letters",
  );
  assert.equal(isALabel(aLabel("\u0915\u093c\u200d\u0937")), false, "after DEVANAGARI SIGN NUKTA, of class 7");
});
