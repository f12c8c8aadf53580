/**
 * Projections: the shape every provider projection returns, and the error
 * a projection throws when the provider cannot carry a tool at all.
 *
 * @module
 */

/** One thing a projection changed, dropped or could not express. */
export interface ProjectionWarning {
  /** A JSON Pointer into the descriptor, e.g. `/inputSchema/properties/tags`. */
  readonly path: string;
  /** The JSON Schema keyword (or descriptor field) concerned. */
  readonly keyword: string;
  /** What was done and why, in one sentence. */
  readonly message: string;
}

/** A provider's tool object and everything the projection had to change to make it. */
export interface Projection<Tool> {
  /** The provider's tool object, ready to send. */
  readonly tool: Tool;
  /** Every change of the schema or metadata; empty when the projection is exact. */
  readonly warnings: readonly ProjectionWarning[];
}

/**
 * A tool cannot be projected for a provider without changing its meaning:
 * a name the provider refuses, or (for OpenAI strict mode with
 * `onUnsupported: "error"`) a schema strict mode cannot express.
 *
 * @example Strict mode refuses an open map
 * ```ts
 * import { describeTool } from "@salvor/tools/dyn";
 * import { ProjectionError, toOpenAITool } from "@salvor/tools/providers";
 * import assert from "node:assert/strict";
 *
 * const descriptor = describeTool({
 *   name: "tag",
 *   description: "Sets labels.",
 *   inputSchema: { type: "object", additionalProperties: { type: "string" } },
 *   effects: [],
 * });
 * assert.throws(() => toOpenAITool(descriptor, { strict: true }), ProjectionError);
 * ```
 */
export class ProjectionError extends TypeError {
  /** Every problem found, each with its path and keyword. */
  readonly problems: readonly ProjectionWarning[];

  /**
   * Makes the error.
   *
   * @param message What cannot be projected, in the form "Cannot X as Y: current value is Z".
   * @param problems Every problem found.
   */
  constructor(message: string, problems: readonly ProjectionWarning[]) {
    super(message);
    this.name = "ProjectionError";
    this.problems = problems;
  }
}
