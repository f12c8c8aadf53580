// How a call that parks for a person is answered on the wire. With a seal,
// as a 2026-07-28 input request: one form built from the resume schema, and
// the sealed record, encrypted, as the request state; the client's retry
// with the person's answer resumes it through ToolSet.resume, on any
// replica, once per nonce store (replicas resume it once in all only when
// their seals share one). Without one, or where the client cannot be asked,
// as a tool error saying why, and never with the record.

import {
  type ElicitRequestFormParams,
  inputRequired,
  type InputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { ToolEvent } from "../../core/contract/events.ts";
import type { SuspendedCall } from "../../core/contract/suspend.ts";
import { toolFailure } from "../../core/contract/failure.ts";
import { isRecord } from "../../core/common/_is_record.ts";
import type { ToolSet } from "../../core/dispatch/tool_set.ts";
import type { CallAnswer, Parking } from "./_call.ts";
import { formSchema } from "./_form_schema.ts";
import type { RequestStateCodec } from "./_request_state.ts";
import { errorResult } from "./_tool_result.ts";
import { subjectOf } from "./_subject.ts";

/** The key of the one input request a parked call makes. */
const ANSWER_KEY = "answer";

/** Why a parked call cannot be asked for on this server or connection. */
export type NoParkingReason = "no_seal" | "stateless_legacy" | "not_a_form";

const EXPLANATIONS: Readonly<Record<NoParkingReason, string>> = {
  no_seal: "this server has no seal to protect the parked call with",
  stateless_legacy:
    'this client speaks a 2025 protocol revision over stateless HTTP, which cannot ask it for input (serve with legacy: "sessionful", or use a 2026-07-28 client)',
  not_a_form: "its answer is not a flat form of strings, numbers and booleans, which is all MCP can ask for",
};

function cannotAsk(record: SuspendedCall, reason: NoParkingReason): CallAnswer {
  return errorResult(
    `The call to "${record.tool}" needs a person's approval, which cannot be asked for: ${EXPLANATIONS[reason]}.`,
    { kind: "policy_required", retryable: false, uncertain: false },
  );
}

/**
 * Parking that answers every parked call with a tool error. No request state
 * reaches it: without a codec, the server's verify hook refuses them all.
 */
export function noParking(reason: NoParkingReason): Parking {
  return {
    park: (record) => Promise.resolve(cannotAsk(record, reason)),
    resume: () => Promise.resolve(undefined),
  };
}

async function* ended(record: SuspendedCall, why: string): AsyncGenerator<ToolEvent> {
  yield {
    type: "failed",
    failure: toolFailure("policy_required", `Cannot resume the call to "${record.tool}" as ${why}`, {
      modelText: `The call to "${record.tool}" was not approved: ${why}.`,
    }),
  };
}

/** Parking that hands parked calls to the client as input requests. */
export function sealedParking(toolset: ToolSet, codec: RequestStateCodec): Parking {
  return {
    async park(record: SuspendedCall): Promise<CallAnswer> {
      const requestedSchema = formSchema(record.resumeSchema);
      if (requestedSchema === undefined) return cannotAsk(record, "not_a_form");
      const result: InputRequiredResult = inputRequired({
        inputRequests: {
          [ANSWER_KEY]: inputRequired.elicit({
            message: record.reason,
            // formSchema checked every property's shape; the SDK's type spells each kind out.
            requestedSchema: requestedSchema as ElicitRequestFormParams["requestedSchema"],
          }),
        },
        requestState: await codec.seal(record),
      });
      return result;
    },
    resume(name: string, ctx: ServerContext, signal: AbortSignal) {
      // What the verify hook returned: the record, opened and its seal checked.
      const record = ctx.mcpReq.requestState<SuspendedCall>();
      if (record === undefined) return Promise.resolve(undefined);
      if (record.tool !== name) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid or expired requestState");
      }
      const response = ctx.mcpReq.inputResponses?.[ANSWER_KEY];
      if (!isRecord(response) || response.action !== "accept") {
        const why = isRecord(response) && typeof response.action === "string"
          ? `the person chose "${String(response.action).slice(0, 20)}"`
          : "the retry carried no answer";
        return Promise.resolve(ended(record, why));
      }
      const subject = subjectOf(ctx);
      return Promise.resolve(
        toolset.resumeStream(record, response.content ?? {}, { signal, ...(subject === undefined ? {} : { subject }) }),
      );
    },
  };
}
