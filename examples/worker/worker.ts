// The demo's native tools served over Streamable HTTP from a Cloudflare
// Worker. Bundle it for workerd and run it (examples/worker/README.md):
//
//   deno bundle --platform=browser --conditions=workerd --format=esm \
//     --output=.tools/examples/worker.js examples/worker/worker.ts
//   workerd serve examples/worker/workerd.capnp
//
// The handler is built once per isolate; each request stands alone
// (2026-07-28 is stateless), so any isolate may answer any request. Here
// write_file changes only the isolate's in-memory notes, without asking; a
// deployment that wants writes approved makes the set with
// { approve: approvalByEffects(), seal } and gives the handler the same seal,
// its secret a Worker secret shared by every isolate.

import { ToolSet } from "../../mod.ts";
import { createMcpFetchHandler } from "../../mcp_server.ts";
import { demoFiles, demoTools } from "../demo_tools.ts";

const tools = new ToolSet().register(...demoTools(demoFiles()));

// A deployed Worker lists its public host name, e.g. allowedHosts: ["tools.example.workers.dev"];
// the default, the local names only, is what a local workerd serves.
const handler = createMcpFetchHandler(tools, { name: "salvor-demo", version: "1.0.0" });

export default { fetch: handler.fetch };
