// How a value appears in an error message: short JSON where it has some,
// else its string form, else its type; never a throw.

/** A value as error messages quote it, cut to 80 characters. */
export function showValue(value: unknown): string {
  let text: string | undefined;
  try {
    // A long string is shown by its start, which is all that is kept: serialising it whole would copy all of it.
    text = JSON.stringify(typeof value === "string" ? value.slice(0, 80) : value) ?? String(value);
  } catch {
    // A cycle, a BigInt, or an object String() cannot convert.
    try {
      text = String(value);
    } catch {
      text = typeof value;
    }
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
