// Run in a fresh process by the registry case and a test of the heap a
// tool holds: defines and registers N tools, each with a schema of its own
// (with a pattern when the second argument is "pattern"), and prints the live heap the set
// retains per tool, read after a full collection while the set is held
// and then used. A fresh process makes the figure what a host's first
// registration costs, one-time costs included.

import { ToolSet } from "../mod.ts";
import { makeTools } from "./_registry_tools.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("Cannot measure retained heap as gc() is not exposed: run with --v8-flags=--expose-gc");
const live = () => {
  gc();
  gc();
  return Deno.memoryUsage().heapUsed;
};

const count = Number(Deno.args[0]);
const withPattern = Deno.args[1] === "pattern";
const before = live();
const tools = new ToolSet().register(...makeTools(count, withPattern));
const after = live();
// Used after the reading, so the set cannot have been collected before it.
const end = await tools.call({ id: "call_1", name: tools.descriptors()[0].name, arguments: { path: "a" } });
if (end.type !== "output" || tools.size !== count) throw new Error("Cannot trust the probe as the set did not answer");
console.log(JSON.stringify({ bytesPerTool: (after - before) / count }));
