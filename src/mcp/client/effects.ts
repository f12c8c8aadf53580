/**
 * Effects of MCP tools: what the host declares wins; a server's own
 * annotations count only when the host trusts it; anything else fails
 * closed.
 *
 * @module
 */

import type { Effect, ExecutionSemantics } from "../../core/contract/effect.ts";

/**
 * The behaviour hints an MCP server may attach to a tool. They are claims
 * by the server, not guarantees, so they are read only for trusted servers.
 */
export interface McpToolAnnotations {
  /** The tool does not change its environment. */
  readonly readOnlyHint?: boolean;
  /** The tool may make destructive changes (the protocol's default is true). */
  readonly destructiveHint?: boolean;
  /** Calling it again with the same arguments has no further effect. */
  readonly idempotentHint?: boolean;
  /** The tool reaches an open world such as the web (the protocol's default is true). */
  readonly openWorldHint?: boolean;
}

/** A host's declaration of what one MCP tool does; it wins over anything the server says. */
export interface McpToolEffects {
  /** The tool's effects; `[]` means pure. */
  readonly effects: readonly Effect[];
  /** Retry and scheduling semantics; defaults follow the effects. */
  readonly semantics?: Partial<ExecutionSemantics>;
}

/** What {@linkcode mcpToolEffects} reads besides the annotations. */
export interface McpEffectsPolicy {
  /** Whether the host trusts the server's annotations. */
  readonly trusted?: boolean;
  /** The host's own declaration for this tool, which wins. */
  readonly override?: McpToolEffects;
  /**
   * The exact contract the server declared in the tool's `_meta` (a Salvor
   * server does, see `readMcpToolContract`); read, like the annotations,
   * only when the server is trusted, and before them.
   */
  readonly declared?: McpToolEffects;
}

const FAIL_CLOSED: McpToolEffects = Object.freeze({
  effects: Object.freeze(["external.mutation"]),
  semantics: Object.freeze({ idempotency: "non_idempotent", retry: "never", concurrency: "serial" }),
});

/**
 * Decides the effects and semantics of an MCP tool. The host's override
 * wins. Otherwise, for a trusted server: the contract it declared in
 * `_meta`, when it sent one; else its annotations: `readOnlyHint` means the read-only
 * `external.read` (idempotent, retried, parallel); else `external.mutation`,
 * non-idempotent unless `destructiveHint` is explicitly false and
 * `idempotentHint` is true; `network.request` is added unless
 * `openWorldHint` is explicitly false (the protocol's defaults). Without
 * trust, or without annotations, the tool fails closed: `external.mutation`,
 * non-idempotent, never retried, serial.
 *
 * @param annotations The server's hints, if any.
 * @param policy Whether the server is trusted, and the host's override.
 * @returns The effects and semantics to declare.
 *
 * @example Hints count only for a trusted server
 * ```ts
 * import { mcpToolEffects } from "@salvor/tools/mcp";
 * import assert from "node:assert/strict";
 *
 * const hints = { readOnlyHint: true, openWorldHint: false };
 * assert.deepEqual(mcpToolEffects(hints, { trusted: true }).effects, ["external.read"]);
 * assert.deepEqual(mcpToolEffects(hints).effects, ["external.mutation"]);
 * assert.deepEqual(mcpToolEffects(hints, { override: { effects: ["fs.read"] } }).effects, ["fs.read"]);
 * assert.deepEqual(mcpToolEffects(hints, { trusted: true, declared: { effects: ["fs.read"] } }).effects, ["fs.read"]);
 * ```
 */
export function mcpToolEffects(
  annotations: McpToolAnnotations | undefined,
  policy: McpEffectsPolicy = {},
): McpToolEffects {
  if (policy.override !== undefined) return policy.override;
  if (policy.trusted !== true) return FAIL_CLOSED;
  if (policy.declared !== undefined) return policy.declared;
  if (annotations === undefined) return FAIL_CLOSED;
  const openWorld = annotations.openWorldHint !== false;
  if (annotations.readOnlyHint === true) {
    return {
      effects: openWorld ? ["external.read", "network.request"] : ["external.read"],
      semantics: { idempotency: "idempotent", retry: "automatic", concurrency: "parallel" },
    };
  }
  const idempotent = annotations.destructiveHint === false && annotations.idempotentHint === true;
  return {
    effects: openWorld ? ["external.mutation", "network.request"] : ["external.mutation"],
    semantics: idempotent
      ? { idempotency: "idempotent", retry: "explicit_only", concurrency: "serial" }
      : FAIL_CLOSED.semantics,
  };
}
