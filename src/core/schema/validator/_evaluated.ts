// What `unevaluatedProperties` and `unevaluatedItems` read: the properties
// and items the passing subschemas of one value's schemas have evaluated.

/** The annotations collected for one value. */
export interface Evaluated {
  /** Property names evaluated. */
  readonly props: Set<string>;
  /** Whether every property was evaluated (`additionalProperties`). */
  allProps: boolean;
  /** Every item before this index was evaluated (`Infinity`: all). */
  items: number;
  /** Items evaluated out of order (`contains`). */
  itemSet: Set<number> | undefined;
}

/** A new, empty collection. */
export function newEvaluated(): Evaluated {
  return { props: new Set(), allProps: false, items: 0, itemSet: undefined };
}

/** Adds what `from` evaluated to `into`. */
export function mergeEvaluated(into: Evaluated, from: Evaluated): void {
  if (from.allProps) into.allProps = true;
  for (const name of from.props) into.props.add(name);
  if (from.items > into.items) into.items = from.items;
  if (from.itemSet !== undefined) {
    into.itemSet ??= new Set();
    for (const index of from.itemSet) into.itemSet.add(index);
  }
}
