// The part of an error message a model may read: its first line, bounded.
// Whatever follows (a stack, a dump) stays with the host.

/** The first line of a text, trimmed and cut at 500 characters. */
export function firstLine(text: string): string {
  const line = text.split("\n", 1)[0].trim();
  return line.length > 500 ? `${line.slice(0, 500)}...` : line;
}
