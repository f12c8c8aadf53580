// ECMA-262 patterns on re2js, a pure JavaScript port of RE2 (no
// WebAssembly) that runs in time linear in the text: each pattern is
// translated to RE2 syntax, keeping ECMA-262's meaning where the two differ.

import { RE2JS } from "re2js";
import type { CompiledPattern, PatternCost } from "./patterns.ts";

// ECMA-262 `\s`: RE2's is ASCII only.
const SPACE =
  "\\t\\n\\x{b}\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}";
// ECMA-262 `.` stops at every line terminator; RE2's only at `\n`.
const DOT = "[^\\n\\r\\x{2028}\\x{2029}]";

function hex(code: number): string {
  return `\\x{${code.toString(16)}}`;
}

function refuse(source: string, what: string): never {
  throw new Error(`the linear-time engine cannot express ${what} in ${JSON.stringify(source)}`);
}

/** Reads the escape at `source[i]` (after the backslash); returns its RE2 form and the next index. */
function escape(source: string, i: number, inClass: boolean): [string, number] {
  const c = source[i];
  switch (c) {
    case "s":
      return [inClass ? SPACE : `[${SPACE}]`, i + 1];
    case "S":
      if (inClass) refuse(source, "\\S inside a class");
      return [`[^${SPACE}]`, i + 1];
    case "d":
    case "D":
    case "w":
    case "W":
    case "t":
    case "n":
    case "r":
    case "f":
    case "v":
      return [`\\${c}`, i + 1];
    case "b":
      return [inClass ? hex(8) : "\\b", i + 1];
    case "B":
      return ["\\B", i + 1];
    case "0":
      return [hex(0), i + 1];
    case "c":
      return [hex(source.charCodeAt(i + 1) % 32), i + 2];
    case "x":
      return [`\\x{${source.slice(i + 1, i + 3)}}`, i + 3];
    case "u": {
      if (source[i + 1] === "{") {
        const end = source.indexOf("}", i);
        return [`\\x{${source.slice(i + 2, end)}}`, end + 1];
      }
      let code = parseInt(source.slice(i + 1, i + 5), 16);
      let next = i + 5;
      // A surrogate pair written as two escapes is one code point.
      if (code >= 0xd800 && code <= 0xdbff && source.startsWith("\\u", next)) {
        const low = parseInt(source.slice(next + 2, next + 6), 16);
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          next += 6;
        }
      }
      return [hex(code), next];
    }
    case "p":
    case "P": {
      const end = source.indexOf("}", i);
      const property = source.slice(i + 2, end);
      // RE2's \p{Greek} is the Script; Script_Extensions holds more code points (U+0342 is Inherited, extended Greek).
      if (/^(Script_Extensions|scx)=/.test(property)) refuse(source, "a Script_Extensions property");
      return [`\\${c}{${property.replace(/^(Script|sc)=/, "")}}`, end + 1];
    }
    case "k":
      return refuse(source, "a named backreference");
    default:
      if (c >= "1" && c <= "9") refuse(source, "a backreference");
      return [`\\${c}`, i + 1];
  }
}

/**
 * Translates an ECMA-262 pattern (valid with the `u` flag) to RE2 syntax.
 *
 * @throws {Error} For a backreference or a lookaround, which RE2 cannot express.
 */
function translate(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length;) {
    const c = source[i];
    if (c === "\\") {
      const [text, next] = escape(source, i + 1, inClass);
      out += text;
      i = next;
    } else if (inClass) {
      if (c === "]") inClass = false;
      out += c === "[" ? "\\[" : c;
      i++;
    } else if (c === "[") {
      // ECMA-262's `[]` matches nothing and `[^]` anything; RE2 reads both differently.
      if (source.startsWith("[]", i)) {
        out += "[^\\x{0}-\\x{10ffff}]";
        i += 2;
      } else if (source.startsWith("[^]", i)) {
        out += "[\\x{0}-\\x{10ffff}]";
        i += 3;
      } else {
        inClass = true;
        out += c;
        i++;
        if (source[i] === "^") {
          out += "^";
          i++;
        }
        // A `]` first in a class closes it in ECMA-262, not in RE2.
        if (source[i] === "]") {
          out += "]";
          inClass = false;
          i++;
        }
      }
    } else if (c === ".") {
      out += DOT;
      i++;
    } else if (c === "(" && source[i + 1] === "?") {
      const rest = source.slice(i + 2, i + 4);
      if (rest[0] === "=" || rest[0] === "!" || rest === "<=" || rest === "<!") refuse(source, "a lookaround");
      if (rest[0] === "<") {
        out += "(?P<";
        i += 3;
      } else {
        out += "(?";
        i += 2;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** re2js takes up to about 15 nanoseconds a character: one validator step, with room to spare. */
const RE2_COST: PatternCost = Object.freeze({ perCharacter: 1, fixed: 10 });

/**
 * Compiles a pattern for re2js.
 *
 * @param source The pattern, valid with the `u` flag.
 * @returns The compiled pattern.
 * @throws {Error} For a backreference or a lookaround, or what RE2 cannot express, naming the pattern.
 */
export function compileRe2(source: string): CompiledPattern {
  const translated = translate(source);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(translated);
  } catch (error) {
    refuse(source, `this pattern (${error instanceof Error ? error.message : String(error)})`);
  }
  return { test: (text: string) => compiled.test(text), cost: RE2_COST };
}
