// The names of formats, apart from their scanners (`_formats.ts`), which
// load only when a schema asserts one: checking a schema needs the names
// alone.

/** Every format the specification names; asserting one not in {@linkcode ASSERTED_FORMATS} is refused. */
export const STANDARD_FORMATS: ReadonlySet<string> = new Set([
  "date-time",
  "date",
  "time",
  "duration",
  "email",
  "idn-email",
  "hostname",
  "idn-hostname",
  "ipv4",
  "ipv6",
  "uri",
  "uri-reference",
  "iri",
  "iri-reference",
  "uuid",
  "uri-template",
  "json-pointer",
  "relative-json-pointer",
  "regex",
]);

/** The formats the compiled validator asserts: each has a scanner in `_formats.ts`. */
export const ASSERTED_FORMATS: ReadonlySet<string> = new Set([
  "date-time",
  "date",
  "time",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uri",
  "uri-reference",
  "uuid",
  "json-pointer",
  "relative-json-pointer",
  "regex",
]);

/** A scanner for each asserted format, by name. */
export type FormatScanners = Readonly<Record<string, (text: string) => boolean>>;
