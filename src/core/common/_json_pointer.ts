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

/**
 * The reference tokens of a JSON Pointer written as a URI fragment (`/a/b%20c/d~1e`): each percent-decoded, then
 * unescaped. `undefined` when a token is not valid percent-encoding.
 */
export function fragmentTokens(pointer: string): string[] | undefined {
  try {
    return pointer.slice(1).split("/").map((raw) =>
      decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~")
    );
  } catch {
    return undefined;
  }
}
