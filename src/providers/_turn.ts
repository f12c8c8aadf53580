// The model's turn as a calls-in adapter first reads it: the object or the
// list it must be, refused with one message whatever the provider. Every
// field and item is read once, in a guard: a getter that throws makes what
// holds it malformed, reported as any other malformed turn is. The MCP
// `_meta` readers read what a server sends the same way.

import { isRecord } from "../core/common/_is_record.ts";

// An item of a list that throws as it is read: readFields finds no fields in it.
const UNREADABLE: unique symbol = Symbol("unreadable");

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
 * The list the turn holds at `field`, its items read as {@linkcode listItems} reads them.
 *
 * @throws {TypeError} When the turn is not an object, or `field` holds no list or throws as it is read.
 */
export function turnList(turn: unknown, noun: string, field: string): unknown[] {
  const read = readFields(turn, [field]);
  const list = read?.[field];
  if (Array.isArray(list)) return listItems(list);
  const article = /^[aeiou]/.test(field) ? "an" : "a";
  const held = isRecord(turn) ? typeof list : turn === null ? "null" : typeof turn;
  const found = read === undefined ? "a field that throws as it is read" : held;
  throw new TypeError(
    `Cannot read the calls as the ${noun} must have ${article} ${field} list: current value is ${found}`,
  );
}

/**
 * The list a turn object may hold at `field` (none when the field is
 * absent or null), its items read as {@linkcode listItems} reads them.
 *
 * @returns The items, or why the field was left out, for a warning.
 */
export function optionalTurnList(turn: Record<string, unknown>, field: string): unknown[] | string {
  const read = readFields(turn, [field]);
  if (read === undefined) return "it throws as it is read";
  const list = read[field] ?? [];
  return Array.isArray(list) ? listItems(list) : "it is not an array";
}

/**
 * The items of a list, each read once. One that throws as it is read is
 * kept in its place as an item {@linkcode readFields} cannot read.
 */
export function listItems(list: readonly unknown[]): unknown[] {
  const items: unknown[] = [];
  for (let index = 0; index < list.length; index++) {
    try {
      items.push(list[index]);
    } catch {
      items.push(UNREADABLE);
    }
  }
  return items;
}

/**
 * The named fields of one item of the turn, each read once, so that a
 * getter cannot show the checks one value and the call another. What is
 * not an object has none of them.
 *
 * @returns The fields, or `undefined` when one throws as it is read (or the item did).
 */
export function readFields<K extends string>(item: unknown, fields: readonly K[]): { [F in K]?: unknown } | undefined {
  if (item === UNREADABLE) return undefined;
  try {
    return Object.fromEntries(fields.map((field) => [field, isRecord(item) ? item[field] : undefined])) as {
      [F in K]?: unknown;
    };
  } catch {
    return undefined;
  }
}
