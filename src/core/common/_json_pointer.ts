// JSON Pointer (RFC 6901) helpers shared by limits, diagnostics and specs.

/** Appends one reference token to a JSON Pointer, escaping `~` and `/`. */
export function appendPointer(pointer: string, token: string): string {
  const escaped = token.includes("~") || token.includes("/")
    ? token.replaceAll("~", "~0").replaceAll("/", "~1")
    : token;
  return `${pointer}/${escaped}`;
}

/** Builds a JSON Pointer from path segments. */
export function toPointer(segments: readonly (string | number)[]): string {
  let pointer = "";
  for (const segment of segments) {
    pointer = appendPointer(pointer, String(segment));
  }
  return pointer;
}
