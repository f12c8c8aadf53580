// Whom a parked call's record is sealed for: the authenticated client, so a
// record one client was handed cannot be resumed by another.

import type { ServerContext } from "@modelcontextprotocol/server";

/** The authenticated client's id, when the request carries one. */
export function subjectOf(ctx: Pick<ServerContext, "http">): string | undefined {
  const clientId = ctx.http?.authInfo?.clientId;
  return typeof clientId === "string" && clientId !== "" ? clientId : undefined;
}
