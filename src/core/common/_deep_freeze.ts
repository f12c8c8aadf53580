// Freezes a value and everything in it, so that a private copy handed out
// (a descriptor, a compiled schema) cannot be changed behind its owner.

/**
 * Freezes a value and every object in it; an object already frozen is
 * taken as frozen through.
 *
 * @param value The value.
 * @returns The same value, frozen.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
