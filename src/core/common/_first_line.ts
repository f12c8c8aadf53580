// The part of an error message a model may read: its first line, bounded.
// Whatever follows (a stack, a dump) stays with the host.

/** The first line of a text, trimmed and cut at 500 characters, never inside a surrogate pair. */
export function firstLine(text: string): string {
  const line = text.split("\n", 1)[0].trim();
  if (line.length <= 500) return line;
  const code = line.charCodeAt(499);
  return `${line.slice(0, code >= 0xd800 && code <= 0xdbff ? 499 : 500)}...`;
}
