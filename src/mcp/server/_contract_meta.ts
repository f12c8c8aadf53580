// The tool's contract as Salvor declared it, carried in the MCP tool's
// `_meta`: annotations are four booleans and cannot say "fs.read" or
// "explicit_only", so a Salvor client that trusts this server reads the
// effects and semantics back exactly from here.

import type { ToolDescriptor } from "../../core/contract/spec.ts";

/** The `_meta` key of a served tool's contract. */
export const CONTRACT_META_KEY = "salvor/contract";

/** The `_meta` of a served tool: its version, effects and complete semantics. */
export function contractMeta(descriptor: ToolDescriptor): Record<string, unknown> {
  return {
    [CONTRACT_META_KEY]: {
      version: descriptor.version,
      effects: [...descriptor.effects],
      semantics: { ...descriptor.semantics },
    },
  };
}
