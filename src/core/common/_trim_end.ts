// Cutting a run of characters off the end of a text, by a loop: a regular
// expression such as `/[.\s]+$/` tries every run in the text, not only the
// last, so a long run that does not end the text takes it time quadratic in
// the run's length (30 ms for 4,000 digits, 2 s for 40,000 spaces).

/**
 * The text without the characters at its end that `strip` says to cut.
 *
 * @param text The text.
 * @param strip Whether a character (one UTF-16 code unit) is cut.
 * @returns The text up to the last character that is not cut.
 */
export function trimEndWhile(text: string, strip: (char: string) => boolean): string {
  let end = text.length;
  while (end > 0 && strip(text[end - 1])) end--;
  return text.slice(0, end);
}
