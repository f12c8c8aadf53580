/**
 * The edge-runtime harness: a fetch-event script, the form Vercel's edge
 * runtime runs, that runs the conformance checks when fetched and answers
 * with the report.
 *
 * @module
 */

import { conformanceResponse } from "./conformance.ts";

interface FetchEvent extends Event {
  respondWith(response: Promise<Response>): void;
}

addEventListener("fetch", (event) => (event as FetchEvent).respondWith(conformanceResponse("edge-runtime")));
