// The one test of "a JSON-like object" that the registry and dispatch apply to
// what hosts, models and tools hand them: null and arrays are not records.

/** Tells whether a value is an object other than null or an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
