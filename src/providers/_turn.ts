// The model's turn as a calls-in adapter first reads it: the object or the
// list it must be, refused with one message whatever the provider.

import { isRecord } from "../core/common/_is_record.ts";

/**
 * The turn as an object.
 *
 * @throws {TypeError} When it is not one, naming it as `noun`.
 */
export function turnObject(turn: unknown, noun: string): Record<string, unknown> {
  if (isRecord(turn)) return turn;
  throw new TypeError(
    `Cannot read the calls as the ${noun} must be an object: current value is ${turn === null ? "null" : typeof turn}`,
  );
}

/**
 * The list the turn holds at `field`.
 *
 * @throws {TypeError} When the turn is not an object or `field` holds no list.
 */
export function turnList(turn: unknown, noun: string, field: string): unknown[] {
  const list = isRecord(turn) ? turn[field] : undefined;
  if (Array.isArray(list)) return list;
  const article = /^[aeiou]/.test(field) ? "an" : "a";
  throw new TypeError(
    `Cannot read the calls as the ${noun} must have ${article} ${field} list: current value is ${
      isRecord(turn) ? typeof list : turn === null ? "null" : typeof turn
    }`,
  );
}

/**
 * The named fields of one item of the turn, each read once, so that a
 * getter cannot show the checks one value and the call another. What is
 * not an object has none of them.
 *
 * @returns The fields, or `undefined` when one throws as it is read.
 */
export function readFields<K extends string>(item: unknown, fields: readonly K[]): { [F in K]?: unknown } | undefined {
  try {
    return Object.fromEntries(fields.map((field) => [field, isRecord(item) ? item[field] : undefined])) as {
      [F in K]?: unknown;
    };
  } catch {
    return undefined;
  }
}
