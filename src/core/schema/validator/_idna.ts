// A-labels for the `hostname` format: an "xn--" label is decoded from
// Punycode (RFC 3492) and the label it stands for is checked by the rules of
// IDNA2008 (RFC 5891, RFC 5892) that need no Unicode data beyond what every
// JavaScript runtime carries: property escapes and normalization. Two rules
// need data no runtime exposes and are left out: the Bidi rule (RFC 5893),
// and the joining types around ZERO WIDTH NON-JOINER, read here by script.
// Loaded with the format scanners, apart from the core.

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 0x80;
const MAX_INT = 0x7fffffff;

/** The value of a Punycode digit, or `BASE` for a character that is none. */
function digitValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 22;
  if (code >= 0x41 && code <= 0x5a) return code - 0x41;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  return BASE;
}

function adapt(delta: number, points: number, first: boolean): number {
  delta = first ? Math.floor(delta / DAMP) : delta >> 1;
  delta += Math.floor(delta / points);
  let k = 0;
  for (; delta > ((BASE - T_MIN) * T_MAX) >> 1; k += BASE) delta = Math.floor(delta / (BASE - T_MIN));
  return k + Math.floor(((BASE - T_MIN + 1) * delta) / (delta + SKEW));
}

/**
 * Decodes Punycode (the part of an A-label after "xn--") into code points.
 *
 * @param input The encoded text.
 * @returns The code points, or `undefined` when the text is not valid Punycode.
 */
export function decodePunycode(input: string): number[] | undefined {
  const delimiter = input.lastIndexOf("-");
  const output: number[] = [];
  for (let j = 0; j < Math.max(delimiter, 0); j++) {
    const code = input.charCodeAt(j);
    if (code >= 0x80) return undefined;
    output.push(code);
  }
  let n = INITIAL_N;
  let i = 0;
  let bias = INITIAL_BIAS;
  for (let at = delimiter > 0 ? delimiter + 1 : 0; at < input.length;) {
    const old = i;
    for (let w = 1, k = BASE;; k += BASE) {
      if (at >= input.length) return undefined;
      const digit = digitValue(input.charCodeAt(at++));
      if (digit >= BASE || digit > Math.floor((MAX_INT - i) / w)) return undefined;
      i += digit * w;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < t) break;
      if (w > Math.floor(MAX_INT / (BASE - t))) return undefined;
      w *= BASE - t;
    }
    const points = output.length + 1;
    bias = adapt(i - old, points, old === 0);
    if (Math.floor(i / points) > MAX_INT - n) return undefined;
    n += Math.floor(i / points);
    i %= points;
    // A basic code point is never encoded; a surrogate or a value past Unicode is no code point.
    if (n < 0x80 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return undefined;
    output.splice(i, 0, n);
    i++;
  }
  return output;
}

// RFC 5892's exceptions (its section 2.6), by code point.
const PVALID_EXCEPTIONS = new Set([0x00df, 0x03c2, 0x06fd, 0x06fe, 0x0f0b, 0x3007]);
const DISALLOWED_EXCEPTIONS = new Set([0x0640, 0x07fa, 0x302e, 0x302f, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303b]);
const MIDDLE_DOT = 0x00b7;
const GREEK_KERAIA = 0x0375;
const HEBREW_GERESH = 0x05f3;
const HEBREW_GERSHAYIM = 0x05f4;
const KATAKANA_MIDDLE_DOT = 0x30fb;
const ZERO_WIDTH_NON_JOINER = 0x200c;
const ZERO_WIDTH_JOINER = 0x200d;

const UNASSIGNED = /^\p{Cn}$/u;
const IGNORABLE = /^[\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Noncharacter_Code_Point}]$/u;
const LETTER_OR_DIGIT = /^[\p{Ll}\p{Lu}\p{Lo}\p{Nd}\p{Lm}\p{Mn}\p{Mc}]$/u;
const MARK = /^\p{M}$/u;
const GREEK = /^\p{Script=Greek}$/u;
const HEBREW = /^\p{Script=Hebrew}$/u;
const KANA_OR_HAN = /^[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]$/u;
// Letters of the scripts whose letters join (Arabic and its kin), and the marks and format characters that let
// joining pass through them: RFC 5892's Joining_Type D, L, R and T, read by script and category.
const JOINING =
  /^[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Mongolian}\p{Script=Mandaic}\p{Script=Manichaean}\p{Script=Psalter_Pahlavi}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}\p{Script=Sogdian}\p{Script=Phags_Pa}]$/u;
const TRANSPARENT = /^[\p{Mn}\p{Me}\p{Cf}]$/u;

function matches(pattern: RegExp, code: number | undefined): boolean {
  return code !== undefined && pattern.test(String.fromCodePoint(code));
}

/**
 * Whether a code point is a virama (canonical combining class 9), read from
 * the runtime's normalization: NFD puts a mark of class 9 before one of class
 * 10 (U+05B0) and after one of class 8 (U+3099), and only such a mark.
 */
function isVirama(code: number | undefined): boolean {
  if (code === undefined) return false;
  const mark = String.fromCodePoint(code);
  if (mark.normalize("NFD") !== mark) return false;
  return ("a\u05b0" + mark).normalize("NFD") === "a" + mark + "\u05b0" &&
    ("a" + mark + "\u3099").normalize("NFD") === "a\u3099" + mark;
}

/** The rules of RFC 5892's CONTEXTO code points (its appendix A), but for the Arabic-Indic digits. */
const CONTEXTO_RULES = new Map<
  number,
  (before: number | undefined, after: number | undefined, points: readonly number[]) => boolean
>([
  [MIDDLE_DOT, (before, after) => before === 0x6c && after === 0x6c],
  [GREEK_KERAIA, (_, after) => matches(GREEK, after)],
  [HEBREW_GERESH, (before) => matches(HEBREW, before)],
  [HEBREW_GERSHAYIM, (before) => matches(HEBREW, before)],
  [
    KATAKANA_MIDDLE_DOT,
    (_before, _after, points) => points.some((point) => point !== KATAKANA_MIDDLE_DOT && matches(KANA_OR_HAN, point)),
  ],
]);

/** Which of the two sets of Arabic-Indic digits a code point is in (0 or 1), or `undefined`. */
function arabicIndicDigits(code: number): number | undefined {
  if (code >= 0x0660 && code <= 0x0669) return 0;
  if (code >= 0x06f0 && code <= 0x06f9) return 1;
  return undefined;
}

/** RFC 5892's derived property, as far as it decides: PVALID, CONTEXTJ, CONTEXTO or neither. */
function propertyOf(code: number): "PVALID" | "CONTEXTJ" | "CONTEXTO" | "DISALLOWED" {
  if (PVALID_EXCEPTIONS.has(code)) return "PVALID";
  if (DISALLOWED_EXCEPTIONS.has(code)) return "DISALLOWED";
  if (CONTEXTO_RULES.has(code) || arabicIndicDigits(code) !== undefined) return "CONTEXTO";
  const char = String.fromCodePoint(code);
  if (UNASSIGNED.test(char)) return "DISALLOWED";
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x2d) return "PVALID";
  if (code === ZERO_WIDTH_NON_JOINER || code === ZERO_WIDTH_JOINER) return "CONTEXTJ";
  // Unstable: changed by NFKC, lower case (for case folding) and NFKC again.
  if (char.normalize("NFKC").toLowerCase().normalize("NFKC") !== char) return "DISALLOWED";
  if (IGNORABLE.test(char)) return "DISALLOWED";
  // Ignorable blocks, and old Hangul jamo (conjoining, not syllables).
  if (
    (code >= 0x20d0 && code <= 0x20ff) || (code >= 0x1d100 && code <= 0x1d24f) || (code >= 0x1100 && code <= 0x11ff) ||
    (code >= 0xa960 && code <= 0xa97f) || (code >= 0xd7b0 && code <= 0xd7ff)
  ) {
    return "DISALLOWED";
  }
  return LETTER_OR_DIGIT.test(char) ? "PVALID" : "DISALLOWED";
}

/** Whether a CONTEXTJ or CONTEXTO code point at `at` meets its rule (RFC 5892, appendix A). */
function inContext(points: readonly number[], at: number): boolean {
  const code = points[at];
  const before = points[at - 1];
  const after = points[at + 1];
  switch (code) {
    case ZERO_WIDTH_JOINER:
      return isVirama(before);
    case ZERO_WIDTH_NON_JOINER: {
      if (isVirama(before)) return true;
      let left = at - 1;
      while (matches(TRANSPARENT, points[left])) left--;
      let right = at + 1;
      while (matches(TRANSPARENT, points[right])) right++;
      return matches(JOINING, points[left]) && matches(JOINING, points[right]);
    }
    default: {
      // Arabic-Indic digits, in either of their two sets: never both in one label.
      const set = arabicIndicDigits(code);
      if (set !== undefined) return !points.some((point) => (arabicIndicDigits(point) ?? set) !== set);
      return CONTEXTO_RULES.get(code)!(before, after, points);
    }
  }
}

/**
 * Whether an "xn--" label is a valid A-label: its Punycode decodes to a
 * label of at least one non-ASCII code point, in NFC, with no hyphen first,
 * last or in both the 3rd and 4th places, no combining mark first, and every
 * code point allowed by IDNA2008, in its context where it needs one.
 *
 * @param label The label, "xn--" included, in any case (read as lower case, as host names compare).
 * @returns Whether it is valid.
 */
export function isALabel(label: string): boolean {
  // Host names compare without case: an A-label in capitals stands for the same label in lower case.
  const points = decodePunycode(label.slice(4).toLowerCase());
  if (points === undefined || points.length === 0 || points.every((point) => point < 0x80)) return false;
  const text = String.fromCodePoint(...points);
  if (text.normalize("NFC") !== text) return false;
  if (points[0] === 0x2d || points[points.length - 1] === 0x2d || (points[2] === 0x2d && points[3] === 0x2d)) {
    return false;
  }
  if (matches(MARK, points[0])) return false;
  for (let at = 0; at < points.length; at++) {
    const property = propertyOf(points[at]);
    if (property === "DISALLOWED" || (property !== "PVALID" && !inContext(points, at))) return false;
  }
  return true;
}
