// Reading a model's untrusted arguments: a JSON string or a value, bounded,
// plain JSON, an object, and a private copy of it.

import type { Diagnostic } from "../common/diagnostics.ts";
import { checkJsonValue, copyJsonValue, type JsonLimits } from "../common/limits.ts";
import { parsedStructureHolds } from "../common/_json_size.ts";
import { messageOfThrown } from "../common/_describe_thrown.ts";

/** Arguments read into a private JSON object, or the one problem that stopped it. */
export type ReadArguments =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly diagnostic: Diagnostic };

function refuse(keyword: string, message: string): ReadArguments {
  return { ok: false, diagnostic: { path: "", keyword, message } };
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/**
 * Reads call arguments. An empty string, `null` or `undefined` reads as
 * `{}`, since several providers send that for tools without parameters.
 * A value (not a string) is copied, so neither the handler nor the caller
 * can change what the other holds.
 */
export function readArguments(raw: unknown, limits: JsonLimits): ReadArguments {
  if (
    raw === undefined || raw === null ||
    (typeof raw === "string" && raw.trim() === "")
  ) {
    return { ok: true, value: {} };
  }
  let value: unknown = raw;
  if (typeof raw === "string") {
    // A string of n UTF-16 units encodes to at least n UTF-8 bytes.
    if (raw.length > limits.maxBytes) {
      return refuse(
        "maxBytes",
        `Cannot accept the arguments as they exceed ${limits.maxBytes} bytes of JSON: current size is ${raw.length} characters`,
      );
    }
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return refuse("json", `Cannot read the arguments as they are not valid JSON: ${messageOfThrown(error)}`);
    }
  }
  if (raw !== value) return accept(value, limits, textVouches(raw as string, limits));
  // A value given directly may hold getters or proxies that throw, or that
  // answer differently when read again: it is read once, into the data copy
  // that is checked and kept (a member set to undefined left out).
  const copied = copyJsonValue(value, limits);
  return copied.ok ? anObject(copied.value) : { ok: false, diagnostic: copied.problem };
}

/**
 * Whether a JSON text vouches for the size, the strings and the containers
 * of what it parses to. Re-encoded compactly, a JSON text takes at most 6
 * bytes a UTF-16 unit (`1e20` becomes 21 digits; a string's unit at most 3
 * bytes, an escape no more than its own length); with no lone surrogate and
 * no `\u` escape in it, no string parsed from it can hold a lone surrogate;
 * and each object or array takes at least two of its characters.
 */
function textVouches(text: string, limits: JsonLimits): boolean {
  const { maxBytes, maxContainers } = limits;
  return text.length * 6 <= maxBytes && (maxContainers === undefined || text.length <= 2 * maxContainers) &&
    text.isWellFormed() && !text.includes("\\u");
}

/**
 * Accepts plain JSON data that nothing else holds, when it is a bounded
 * object. When its JSON text vouches for its size, strings and containers,
 * only its depth and numbers are checked before the full check would.
 */
function accept(value: unknown, limits: JsonLimits, vouched: boolean): ReadArguments {
  const problem = vouched && parsedStructureHolds(value, limits.maxDepth) ? undefined : checkJsonValue(value, limits);
  return problem ? { ok: false, diagnostic: problem } : anObject(value);
}

/** Accepts checked JSON data when it is an object. */
function anObject(value: unknown): ReadArguments {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return refuse(
      "type",
      `Cannot accept the arguments as they must be a JSON object: current value is ${kindOf(value)}`,
    );
  }
  return { ok: true, value: value as Record<string, unknown> };
}
