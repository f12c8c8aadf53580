// Setting a member of a fresh plain object the way JSON.parse makes one.

/**
 * Sets an own data property, even one named `__proto__`, which plain assignment would take for the prototype. A
 * repeated key keeps its last value.
 *
 * @param target A plain object.
 * @param key The member's name.
 * @param value Its value.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
