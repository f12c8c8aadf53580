// The demo's native tools served over stdio: an MCP client spawns this
// process and talks to it on stdin and stdout.
//
//   deno run --allow-env --allow-read examples/serve_stdio.ts
//
// Point a client at it, e.g. with this module's own client:
//   connectMcpServer({ name: "demo", command: "deno", args: ["run", "--allow-env", "--allow-read", "examples/serve_stdio.ts"] })

import { approvalByEffects, ToolSet } from "../mod.ts";
import { serveStdio } from "../mcp_server.ts";
import { demoFiles, demoTools } from "./demo_tools.ts";

// A person approves every write (the gate asks about fs.write). One process
// serves the whole connection, so a key of its own seals the records of those
// approvals; a server of several replicas shares one.
const seal = { key: { id: "local", secret: crypto.getRandomValues(new Uint8Array(32)) } };
const tools = new ToolSet({ approve: approvalByEffects(), seal }).register(...demoTools(demoFiles()));
serveStdio(tools, { name: "salvor-demo", version: "1.0.0" }, { seal });
