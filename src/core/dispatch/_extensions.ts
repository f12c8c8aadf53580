// A call's extensions are the host's values for its handler, read once into a
// copy of the call's own whose plain objects and arrays are copied and frozen
// through: no handler can change what the host, the observer or another call
// holds. What cannot be copied (a function, a class's instance: a tracer, a
// URL) is handed on as it is, the host's to share, and left unfrozen, as
// freezing it would change the host's own object. The copy is bounded by the
// set's limits, as arguments are: its depth, its objects and arrays, and the
// size of its data as JSON; a cycle is refused.

import type { JsonLimits } from "../common/limits.ts";
import { encodedStringBytes, numberBytes } from "../common/_json_size.ts";
import { toPointer } from "../common/_json_pointer.ts";
import { messageOfThrown } from "../common/_describe_thrown.ts";

/** What a copy step returns when the extensions broke a bound; the copy's `problem` says how. */
const REFUSED: unique symbol = Symbol("refused");

/** A string's size as JSON; a lone surrogate, which has no UTF-8 encoding, as the six-character escape JSON writes. */
function stringBytes(text: string): number {
  const bytes = encodedStringBytes(text);
  return bytes < 0 ? text.length * 6 + 2 : bytes;
}

/** Whether an object is plain data: an object of some realm's `Object.prototype` (or of none). */
function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

class FrozenCopy {
  bytes = 0;
  containers = 0;
  problem: string | undefined;
  readonly ancestors: object[] = [];
  // Joined only on failure, so a copy that passes builds no path.
  readonly tokens: (string | number)[] = [];
  constructor(readonly limits: JsonLimits) {}

  refuse(bound: string, current: string): typeof REFUSED {
    this.problem = `extensions must ${bound}: current value is ${current} at ${toPointer(this.tokens) || "/"}`;
    return REFUSED;
  }

  add(bytes: number): boolean {
    this.bytes += bytes;
    if (this.bytes <= this.limits.maxBytes) return true;
    this.refuse(`take at most ${this.limits.maxBytes} bytes as JSON`, `over ${this.bytes} bytes`);
    return false;
  }

  value(value: unknown, depth: number): unknown {
    switch (typeof value) {
      case "string":
        return this.add(stringBytes(value)) ? value : REFUSED;
      case "number":
        return this.add(numberBytes(value)) ? value : REFUSED;
      case "boolean":
        return this.add(value ? 4 : 5) ? value : REFUSED;
      case "object":
        if (value === null) return this.add(4) ? value : REFUSED;
        return Array.isArray(value) || isPlain(value) ? this.container(value, depth + 1) : value;
      default:
        return value;
    }
  }

  container(value: object, depth: number, asArray: boolean = Array.isArray(value)): unknown {
    const { maxDepth, maxContainers } = this.limits;
    if (depth > maxDepth) return this.refuse(`nest at most ${maxDepth} levels deep`, "deeper");
    if (maxContainers !== undefined && ++this.containers > maxContainers) {
      return this.refuse(`hold at most ${maxContainers} objects and arrays`, "larger");
    }
    if (this.ancestors.includes(value)) return this.refuse("not contain themselves", "a cycle");
    this.ancestors.push(value);
    const copy = asArray ? this.array(value as unknown[], depth) : this.object(value, depth);
    this.ancestors.pop();
    return copy === REFUSED ? copy : Object.freeze(copy);
  }

  array(items: readonly unknown[], depth: number): unknown[] | typeof REFUSED {
    const length = items.length;
    if (!this.add(length === 0 ? 2 : length + 1)) return REFUSED;
    const copy: unknown[] = [];
    for (let i = 0; i < length; i++) {
      this.tokens.push(i);
      const item = this.value(items[i], depth);
      if (item === REFUSED) return REFUSED;
      copy.push(item);
      this.tokens.pop();
    }
    return copy;
  }

  object(record: object, depth: number): Record<PropertyKey, unknown> | typeof REFUSED {
    // A symbol-keyed property (a library's own slot) is the host's value too, as a spread copies it.
    const keys: (string | symbol)[] = Object.keys(record);
    for (const symbol of Object.getOwnPropertySymbols(record)) {
      if (Object.prototype.propertyIsEnumerable.call(record, symbol)) keys.push(symbol);
    }
    if (!this.add(keys.length === 0 ? 2 : keys.length + 1)) return REFUSED;
    const entries: [string | symbol, unknown][] = [];
    for (const key of keys) {
      const named = typeof key === "string";
      this.tokens.push(named ? key : String(key));
      // +1 for the colon after the key; each property is read once.
      if (!this.add((named ? stringBytes(key) : 0) + 1)) return REFUSED;
      const item = this.value((record as Record<string | symbol, unknown>)[key], depth);
      if (item === REFUSED) return REFUSED;
      entries.push([key, item]);
      this.tokens.pop();
    }
    // fromEntries defines own properties: a "__proto__" key stays a key.
    return Object.fromEntries(entries);
  }
}

/**
 * Copies a call's extensions, or an observer's additions to them, for its handler: its own enumerable properties
 * into a frozen object, its plain objects and arrays copied and frozen through, anything else handed on as it is.
 *
 * @param extensions The host's extensions; not changed.
 * @param limits The set's limits, which bound the copy.
 * @returns The frozen copy, or what is wrong with the extensions.
 */
export function frozenExtensions(extensions: object, limits: JsonLimits): Readonly<Record<string, unknown>> | string {
  const copy = new FrozenCopy(limits);
  try {
    // The top level is copied as a record even from an array: a handler reads ctx.extensions as one.
    const copied = copy.container(extensions, 1, false);
    return copied === REFUSED ? copy.problem! : copied as Readonly<Record<string, unknown>>;
  } catch (error) {
    return `extensions could not be read: ${messageOfThrown(error)}`;
  }
}
