// The demo's native tools served over stdio: an MCP client spawns this
// process and talks to it on stdin and stdout.
//
//   deno run --allow-env --allow-read examples/serve_stdio.ts
//
// Point a client at it, e.g. with this module's own client:
//   connectMcpServer({ name: "demo", command: "deno", args: ["run", "--allow-env", "--allow-read", "examples/serve_stdio.ts"] })

import { ToolSet } from "../mod.ts";
import { serveStdio } from "../mcp_server.ts";
import { demoFiles, demoTools } from "./demo_tools.ts";

const tools = new ToolSet().register(...demoTools(demoFiles()));
serveStdio(tools, { name: "salvor-demo", version: "1.0.0" });
