// How a parked call is answered when it cannot be handed to the client:
// as a tool error saying why, and never with the record, which holds what
// only the person answering should see.

import { ProtocolError, ProtocolErrorCode, type ServerContext } from "@modelcontextprotocol/server";
import type { SuspendedCall } from "../../core/contract/suspend.ts";
import type { Parking } from "./_call.ts";
import { errorResult } from "./_tool_result.ts";

/** Why a parked call cannot be asked for on this server or connection. */
export type NoParkingReason = "no_seal" | "stateless_legacy";

const EXPLANATIONS: Readonly<Record<NoParkingReason, string>> = {
  no_seal: "this server has no seal to protect the parked call with",
  stateless_legacy:
    'this client speaks a 2025 protocol revision over stateless HTTP, which cannot ask it for input (serve with legacy: "sessionful", or use a 2026-07-28 client)',
};

/** Parking that answers every parked call with a tool error, and refuses any request state. */
export function noParking(reason: NoParkingReason): Parking {
  return {
    park(record: SuspendedCall) {
      return Promise.resolve(errorResult(
        `The call to "${record.tool}" needs a person's approval, which cannot be asked for: ${EXPLANATIONS[reason]}.`,
        { kind: "policy_required", retryable: false, uncertain: false },
      ));
    },
    resume(_name: string, ctx: ServerContext) {
      if (ctx.mcpReq.requestState() === undefined) return Promise.resolve(undefined);
      // No state was ever handed out, so this one is forged or from another server.
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid or expired requestState");
    },
  };
}
