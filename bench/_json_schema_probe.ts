// Case 2's dispatch rows in Node.js or Bun: bundled by json_schema_runtimes.ts
// with `@salvor/tools` left to the npm build installed beside it.
//
//   node json_schema_probe.js <schemas as JSON> <smoke|full> <runtime's name>
//
// prints the rows as one line of JSON.

import { jsonSchemaDispatchRows } from "./_json_schema_case.ts";

const { argv } = (globalThis as unknown as { process: { argv: string[] } }).process;
const [schemas, mode, runtime] = argv.slice(2);
const rows = await jsonSchemaDispatchRows(JSON.parse(schemas), runtime, { smoke: mode === "smoke" });
console.log(JSON.stringify(rows));
