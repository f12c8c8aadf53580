// The part of sealing that loads apart from the core, the first time a
// record is sealed or verified: the HMAC and the stamp's checks. A bundler
// splits it into a chunk of its own.

import { type Apart, apart } from "../common/_apart.ts";

/** The seal's work: `sealRecord` and `verifyRecord`. */
export const SEALING: Apart<typeof import("./_sealing.ts")> = apart(() => import("./_sealing.ts"));
