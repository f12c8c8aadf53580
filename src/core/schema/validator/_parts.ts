// The keywords that read the value alone (no subschema): their checks and
// messages. Their values passed the static check (`_check.ts`).

import { isRecord } from "../../common/_is_record.ts";
import { showValue } from "../../common/_show_value.ts";
import { appendPointer } from "../../common/_json_pointer.ts";
import { canonicalJson, canonicalJsonWithin, jsonEqual } from "./_json_equal.ts";
import { type Part, push } from "./_node.ts";
import { charge, type Runtime } from "./_runtime.ts";
import { codePoints } from "./_code_points.ts";

/** A canonical encoding takes about two steps a character to build. */
const CANONICAL_STEPS_PER_CHARACTER = 2;

// Names Object.prototype gives every object: reading one is not finding it.
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Whether an object lacks an own property, without `hasOwn` for the usual names. */
export function lacks(object: Record<string, unknown>, name: string, inherited: boolean): boolean {
  return inherited ? !Object.hasOwn(object, name) : object[name] === undefined;
}

/** Whether `name` is also a property every object inherits. */
export function isInherited(name: string): boolean {
  return INHERITED.has(name);
}

const ARTICLES: Record<string, string> = {
  null: "null",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  number: "a number",
  string: "a string",
  integer: "an integer",
};

/** How a message names the kind of a value. */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  return ARTICLES[typeof value] ?? typeof value;
}

function typeCheck(type: string): (value: unknown) => boolean {
  switch (type) {
    case "string":
      return (value) => typeof value === "string";
    case "number":
      return (value) => typeof value === "number";
    case "integer":
      return (value) => Number.isInteger(value);
    case "boolean":
      return (value) => typeof value === "boolean";
    case "null":
      return (value) => value === null;
    case "array":
      return (value) => Array.isArray(value);
    default:
      return isRecord;
  }
}

/** `type`: one name or an array of distinct names. */
export function typePart(type: string | string[]): Part {
  const types = typeof type === "string" ? [type] : type;
  const wanted = types.length === 0
    ? "no value"
    : types.map((name) => ARTICLES[name]).join(types.length === 2 ? " or " : ", ");
  let check: (value: unknown) => boolean;
  if (types.length === 1) {
    check = typeCheck(types[0]);
  } else {
    const checks = types.map(typeCheck);
    check = (value) => {
      for (let i = 0; i < checks.length; i++) if (checks[i](value)) return true;
      return false;
    };
  }
  return {
    check,
    report: (value, path, sink) => push(sink, path, "type", `Expected ${wanted} but received ${kindOf(value)}.`),
  };
}

/** `const`: JSON equality with one value. */
export function constPart(expected: unknown, runtime: Runtime): Part {
  const composite = typeof expected === "object" && expected !== null;
  // A comparison reads at most what the expected value holds.
  const reads = composite ? canonicalJson(expected).length : 0;
  // What a value must equal is fixed once compiled: its message is written on first report, once.
  let message: string | undefined;
  return {
    check: composite ? (value) => (charge(runtime, reads), jsonEqual(value, expected)) : (value) => value === expected,
    report: (_value, path, sink) => push(sink, path, "const", message ??= `Expected ${showValue(expected)}.`),
  };
}

/**
 * `enum`: JSON equality with one of a list; scalars through a `Set`, and
 * composites by their canonical encoding, so a check costs the value's
 * encoding (never longer than the longest item's), not a comparison with
 * every item.
 */
export function enumPart(list: unknown[], runtime: Runtime): Part {
  const scalars = new Set(list.filter((item) => typeof item !== "object" || item === null));
  const composites = new Set(
    list.filter((item) => typeof item === "object" && item !== null).map((item) => canonicalJson(item)),
  );
  let longest = 0;
  for (const encoded of composites) longest = Math.max(longest, encoded.length);
  let message: string | undefined;
  return {
    check: (value) => {
      if (typeof value !== "object" || value === null) return scalars.has(value);
      if (composites.size === 0) return false;
      charge(runtime, longest * CANONICAL_STEPS_PER_CHARACTER);
      const encoded = canonicalJsonWithin(value, longest);
      return encoded !== undefined && composites.has(encoded);
    },
    report: (_value, path, sink) => push(sink, path, "enum", message ??= `Expected one of ${showValue(list)}.`),
  };
}

/** `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`. */
export function boundPart(keyword: string, limit: number): Part {
  switch (keyword) {
    case "minimum":
      return numberPart(keyword, (n) => n >= limit, `Expected a number at least ${limit}.`);
    case "maximum":
      return numberPart(keyword, (n) => n <= limit, `Expected a number at most ${limit}.`);
    case "exclusiveMinimum":
      return numberPart(keyword, (n) => n > limit, `Expected a number greater than ${limit}.`);
    default:
      return numberPart(keyword, (n) => n < limit, `Expected a number less than ${limit}.`);
  }
}

function numberPart(keyword: string, accepts: (value: number) => boolean, message: string): Part {
  return {
    check: (value) => typeof value !== "number" || accepts(value),
    report: (_value, path, sink) => push(sink, path, keyword, message),
  };
}

/**
 * `multipleOf`, exact on the decimals JSON writes: 0.3 is a multiple of 0.1,
 * 0.30000000000000004 is not, though floating point division says otherwise.
 */
export function multipleOfPart(divisor: number): Part {
  const integral = Number.isInteger(divisor);
  const exactDivisor = decimalOf(divisor);
  return numberPart("multipleOf", (value) => {
    if (integral) return Number.isInteger(value) && value % divisor === 0;
    // A quotient this far from a whole number is none in decimals either (floating point errs by
    // far less, short of subnormals); near one, or past the range of doubles, the decimals decide.
    const quotient = value / divisor;
    const gap = Math.abs(quotient - Math.round(quotient));
    if (gap > 1e-9 * Math.max(1, Math.abs(quotient)) && Math.min(Math.abs(value), divisor) > 1e-300) return false;
    return isDecimalMultiple(decimalOf(value), exactDivisor);
  }, `Expected a multiple of ${divisor}.`);
}

/** A number's magnitude as the shortest decimal that reads back as it: `digits` × 10^`exponent`. */
interface Decimal {
  readonly digits: bigint;
  readonly exponent: number;
}

function decimalOf(value: number): Decimal {
  const [mantissa, power = "0"] = Math.abs(value).toString().split("e");
  const point = mantissa.indexOf(".");
  const fractionDigits = point === -1 ? 0 : mantissa.length - point - 1;
  return { digits: BigInt(mantissa.replace(".", "")), exponent: Number(power) - fractionDigits };
}

/** Whether `value` is a whole multiple of `divisor`, both brought to the smaller exponent. */
function isDecimalMultiple(value: Decimal, divisor: Decimal): boolean {
  const common = Math.min(value.exponent, divisor.exponent);
  const whole = (decimal: Decimal) => decimal.digits * 10n ** BigInt(decimal.exponent - common);
  return whole(value) % whole(divisor) === 0n;
}

/** `minLength` and `maxLength`; the UTF-16 length decides without counting when it can. */
export function lengthPart(keyword: string, limit: number, runtime: Runtime): Part {
  if (keyword === "minLength") {
    const twice = limit * 2;
    return {
      check: (value) =>
        typeof value !== "string" || value.length >= twice ||
        (value.length >= limit && codePoints(value, runtime) >= limit),
      report: (_value, path, sink) =>
        push(sink, path, keyword, `Expected at least ${limit} character${limit === 1 ? "" : "s"}.`),
    };
  }
  return {
    check: (value) => typeof value !== "string" || value.length <= limit || codePoints(value, runtime) <= limit,
    report: (_value, path, sink) =>
      push(sink, path, keyword, `Expected at most ${limit} character${limit === 1 ? "" : "s"}.`),
  };
}

/** `minItems`, `maxItems`, `minProperties`, `maxProperties`. */
export function countPart(keyword: string, limit: number, runtime: Runtime): Part {
  const noun = keyword.endsWith("Items") ? "item" : "propert";
  const plural = noun === "item" ? (limit === 1 ? "item" : "items") : (limit === 1 ? "property" : "properties");
  const message = `Expected at ${keyword.startsWith("min") ? "least" : "most"} ${limit} ${plural}.`;
  const report: Part["report"] = (_value, path, sink) => push(sink, path, keyword, message);
  switch (keyword) {
    case "minItems":
      return { check: (value) => !Array.isArray(value) || value.length >= limit, report };
    case "maxItems":
      return { check: (value) => !Array.isArray(value) || value.length <= limit, report };
    case "minProperties":
      return { check: (value) => !isRecord(value) || propertyCount(value, limit, runtime) >= limit, report };
    default:
      return { check: (value) => !isRecord(value) || propertyCount(value, limit + 1, runtime) <= limit, report };
  }
}

/** Counts own properties up to `enough`, without the array `Object.keys` builds. */
function propertyCount(object: Record<string, unknown>, enough: number, runtime: Runtime): number {
  let count = 0;
  for (const _ in object) if (++count >= enough) break;
  charge(runtime, count);
  return count;
}

/** Finds two equal items, or returns `undefined`. */
function repeated(items: readonly unknown[], runtime: Runtime): [number, number] | undefined {
  charge(runtime, items.length);
  // Few scalars: compare pairs, allocating nothing.
  if (items.length <= 16 && items.every((item) => typeof item !== "object" || item === null)) {
    for (let i = 0; i < items.length; i++) {
      for (let j = i + 1; j < items.length; j++) if (items[i] === items[j]) return [i, j];
    }
    return undefined;
  }
  const scalars = new Map<unknown, number>();
  const composites = new Map<string, number>();
  for (let j = 0; j < items.length; j++) {
    const item = items[j];
    const composite = typeof item === "object" && item !== null;
    const key = composite ? canonicalJson(item) : item;
    if (composite) charge(runtime, (key as string).length * CANONICAL_STEPS_PER_CHARACTER);
    const seen = composite ? composites.get(key as string) : scalars.get(key);
    if (seen !== undefined) return [seen, j];
    if (composite) composites.set(key as string, j);
    else scalars.set(key, j);
  }
  return undefined;
}

/** `uniqueItems`. */
export function uniqueItemsPart(unique: boolean, runtime: Runtime): Part | undefined {
  if (!unique) return undefined;
  return {
    check: (value) => !Array.isArray(value) || value.length < 2 || repeated(value, runtime) === undefined,
    report: (value, path, sink) => {
      const [i, j] = repeated(value as unknown[], runtime)!;
      push(sink, path, "uniqueItems", `Items ${i} and ${j} are equal; items must be unique.`);
    },
  };
}

/** `required`. */
export function requiredPart(names: string[], runtime: Runtime): Part | undefined {
  if (names.length === 0) return undefined;
  const inherited = names.map(isInherited);
  return {
    check: (value) => {
      if (!isRecord(value)) return true;
      charge(runtime, names.length);
      for (let i = 0; i < names.length; i++) if (lacks(value, names[i], inherited[i])) return false;
      return true;
    },
    report: (value, path, sink) => {
      const object = value as Record<string, unknown>;
      for (let i = 0; i < names.length; i++) {
        if (lacks(object, names[i], inherited[i])) {
          push(sink, appendPointer(path, names[i]), "required", `Missing required property "${names[i]}".`);
        }
      }
    },
  };
}

/** `dependentRequired`, and the array form of draft-07's `dependencies` (reported under `keyword`). */
export function dependentRequiredPart(
  keyword: string,
  map: Record<string, string[]>,
  runtime: Runtime,
): Part | undefined {
  const triggers = Object.keys(map).filter((name) => map[name].length > 0);
  if (triggers.length === 0) return undefined;
  // The most names one check reads: every trigger and every name it requires.
  const reads = triggers.reduce((sum, trigger) => sum + 1 + map[trigger].length, 0);
  const missing = (object: Record<string, unknown>, trigger: string) =>
    Object.hasOwn(object, trigger) ? map[trigger].filter((name) => !Object.hasOwn(object, name)) : [];
  return {
    check: (value) => {
      if (!isRecord(value)) return true;
      charge(runtime, reads);
      for (const trigger of triggers) {
        if (!Object.hasOwn(value, trigger)) continue;
        for (const name of map[trigger]) if (!Object.hasOwn(value, name)) return false;
      }
      return true;
    },
    report: (value, path, sink) => {
      for (const trigger of triggers) {
        for (const name of missing(value as Record<string, unknown>, trigger)) {
          push(
            sink,
            appendPointer(path, name),
            keyword,
            `Missing property "${name}", required when "${trigger}" is present.`,
          );
        }
      }
    },
  };
}

/** `format` when asserted: a string is checked, other values pass. */
export function formatPart(format: string, accepts: (text: string) => boolean, runtime: Runtime): Part {
  return {
    // A scanner reads its string once; `regex` compiles it, at up to about ten nanoseconds a character: a step each.
    check: (value) => typeof value !== "string" || (charge(runtime, value.length + 1), accepts(value)),
    report: (_value, path, sink) => push(sink, path, "format", `Expected a string in the "${format}" format.`),
  };
}

// Made on first use: reading a runtime's global at import would be a side effect (Node.js defines some lazily).
let utf8: TextDecoder | undefined;

/** Whether a string is base64 (RFC 4648's alphabet, padded, no line breaks), read once. */
function isBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const end = text.length - (text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0);
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    const alphanumeric = (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x61 && code <= 0x7a);
    if (!alphanumeric && code !== 0x2b && code !== 0x2f) return false;
  }
  return true;
}

/** The text a base64 string encodes as UTF-8, or `undefined`. */
function base64Text(text: string): string | undefined {
  if (!isBase64(text)) return undefined;
  try {
    utf8 ??= new TextDecoder("utf-8", { fatal: true });
    return utf8.decode(Uint8Array.from(atob(text), (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

function isJsonText(text: string | undefined): boolean {
  if (text === undefined) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Draft-07's `contentEncoding: "base64"` and `contentMediaType: "application/json"`,
 * asserted with the formats (that draft lets a validator assert them; 2020-12 makes them annotations).
 */
export function contentPart(base64: boolean, json: boolean, runtime: Runtime): Part {
  const decoded = (text: string) => base64 ? base64Text(text) : text;
  return {
    check: (value) => {
      if (typeof value !== "string") return true;
      // Decoding and parsing take up to about twenty nanoseconds a character.
      charge(runtime, value.length * 2);
      const text = decoded(value);
      return text !== undefined && (!json || isJsonText(text));
    },
    report: (value, path, sink) => {
      if (decoded(value as string) === undefined) {
        push(sink, path, "contentEncoding", "Expected a base64-encoded string.");
      } else push(sink, path, "contentMediaType", "Expected a string holding a JSON document.");
    },
  };
}
