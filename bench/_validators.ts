// The JSON Schema validators raw dispatch is compared with, pinned. Imported
// only by the benchmarks: the published package never sees these modules.

// Ajv, the code-generating validator: the speed a JSON Schema validator reaches with `new Function`.
export { Ajv } from "npm:ajv@8.20.0";
