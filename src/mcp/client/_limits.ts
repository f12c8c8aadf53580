// The bounds every MCP connection holds a server to, in one place so that
// the option docs, the README's table and the code agree on each default.

/**
 * The largest message read from a server, stdio line or HTTP body or SSE event: 6 MiB. The text of a long
 * message is copied whole once, in one stretch, when the parse first reads it; a text with one character
 * beyond Latin-1 is copied at two bytes a character: about 10 ms for 6 MiB on two cores, and up to 0.1 s
 * for 64 MiB.
 */
export const DEFAULT_MAX_MESSAGE_BYTES: number = 6 * 1024 * 1024;
/** The most characters of text a tool result shows the model, across its parts. */
export const DEFAULT_MAX_CONTENT_CHARS: number = 100_000;
/** The most bytes of base64 image, audio and blob data a tool result shows the model, across its parts. */
export const DEFAULT_MAX_CONTENT_BYTES: number = 5 * 1024 * 1024;
/** The most tools one server may list. */
export const DEFAULT_MAX_TOOLS: number = 1_000;
/** The longest tool description shown to the model, in characters. */
export const DEFAULT_MAX_DESCRIPTION_CHARS: number = 4_000;

/** The largest delay a timer accepts, and the largest count any option takes. */
export const MAX_OPTION: number = 2 ** 31 - 1;

/**
 * Reads a whole-number option of a connection, or its default.
 *
 * @throws {RangeError} When it is not a whole number from `min` to 2^31 - 1.
 */
export function wholeOption(
  value: number | undefined,
  fallback: number,
  what: string,
  server: string,
  min: 0 | 1 = 1,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > MAX_OPTION) {
    throw new RangeError(
      `Cannot connect to MCP server "${server}" as ${what} must be a whole number from ${min} to ${MAX_OPTION}: current value is ${
        JSON.stringify(value)
      }`,
    );
  }
  return value;
}
