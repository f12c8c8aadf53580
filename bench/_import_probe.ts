// Run in a fresh process by the cold-start case: imports one module and
// prints how long the import took, in ms.

const specifier = Deno.args[0];
const started = performance.now();
await import(specifier);
console.log(JSON.stringify({ ms: performance.now() - started }));
