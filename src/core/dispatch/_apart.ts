// The part of dispatch that loads apart from the core, the first time a
// batch is run or resumed: the batch runner. A bundler splits it into a chunk
// of its own.

import { type Apart, apart } from "../common/_apart.ts";

/** The batch runner's work: `run` and `resume`. */
export const BATCH_RUNNER: Apart<typeof import("./_batch_runner.ts")> = apart(() => import("./_batch_runner.ts"));
