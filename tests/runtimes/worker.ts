/**
 * The workerd harness: a module worker that runs the conformance checks
 * when fetched and answers with the report.
 *
 * @module
 */

import { conformanceResponse } from "./conformance.ts";

export default {
  fetch(): Promise<Response> {
    return conformanceResponse("workerd");
  },
};
