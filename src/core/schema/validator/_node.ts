// The shape of compiled schemas: every schema becomes a check (the fast
// verdict) and a report (the diagnostics of a failing value).

import type { Diagnostic } from "../../common/diagnostics.ts";
import type { Evaluated } from "./_evaluated.ts";
import type { Leaf } from "./_leaf.ts";

/** The verdict of one schema or keyword on one value. `ev` collects annotations when a schema above needs them. */
export type Check = (value: unknown, ev: Evaluated | undefined) => boolean;

/** Where reports collect diagnostics, up to `max`. */
export interface Sink {
  readonly out: Diagnostic[];
  readonly max: number;
}

/** Adds the diagnostics of a value the check refused. */
export type Report = (value: unknown, path: string, sink: Sink, ev: Evaluated | undefined) => void;

/** One keyword (or a few read together) compiled. */
export interface Part {
  readonly check: Check;
  readonly report: Report;
}

/** One compiled schema; `children` (subschemas and `$ref` targets) size the expansion. */
export interface Node {
  check: Check;
  report: Report;
  ready: boolean;
  readonly children: Node[];
  /** The schema as data when it is a leaf, for its parent to check inline. */
  leaf: Leaf | undefined;
}

/** Records one diagnostic unless the sink is full. */
export function push(sink: Sink, path: string, keyword: string, message: string): void {
  if (sink.out.length < sink.max) sink.out.push({ path, keyword, message });
}

/** A check that accepts everything. */
export const alwaysTrue: Check = () => true;

/** One check that passes when all of `checks` pass, without a loop for the common small counts. */
export function allOf(checks: readonly Check[]): Check {
  switch (checks.length) {
    case 0:
      return alwaysTrue;
    case 1:
      return checks[0];
    case 2: {
      const [a, b] = checks;
      return (value, ev) => a(value, ev) && b(value, ev);
    }
    case 3: {
      const [a, b, c] = checks;
      return (value, ev) => a(value, ev) && b(value, ev) && c(value, ev);
    }
    default:
      return (value, ev) => {
        for (let i = 0; i < checks.length; i++) if (!checks[i](value, ev)) return false;
        return true;
      };
  }
}
