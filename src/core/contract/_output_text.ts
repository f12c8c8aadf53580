// What a model reads of a result whose handler chose no content: the output
// as JSON text. It is written by dispatch from the output it validated, not
// from the value the handler returned, which a getter or a later change can
// make differ.

import type { ContentPart } from "./events.ts";

/** The content of a handler's result until dispatch writes the validated output as text. */
export const OUTPUT_AS_TEXT: readonly ContentPart[] = Object.freeze([]);

/** An output as the one text part a model reads; no part for no output or one JSON cannot carry. */
export function outputAsText(output: unknown): ContentPart[] {
  if (output === undefined) return [];
  try {
    return [{ type: "text", text: JSON.stringify(output) }];
  } catch {
    // Not JSON: dispatch's output check fails the call as invalid_output.
    return [];
  }
}
