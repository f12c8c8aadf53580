/**
 * Names of MCP tools as a model sees them: deterministic, provider-safe
 * and prefixed with the server's name.
 *
 * @module
 */

/** The longest tool name every major model provider accepts. */
export const MAX_TOOL_NAME_LENGTH = 64;

const UNSAFE = /[^A-Za-z0-9_-]/g;
const HASH_LENGTH = 8;

/** FNV-1a over UTF-16 code units: stable across runs and runtimes, synchronous. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(HASH_LENGTH, "0");
}

/**
 * Makes the name a tool of an MCP server is registered under:
 * `<server>__<tool>`, with every character outside `[A-Za-z0-9_-]` replaced
 * by `_`. When that loses information (a character was replaced, or the
 * name is longer than 64 characters and is cut), the name ends with `_` and
 * 8 hex digits of a hash (FNV-1a) of the server's and the tool's own names,
 * so names stay distinct and stable for any Unicode input: `検索` and `翻訳`
 * get two names, the same two on every run.
 *
 * @param server The server's name as the host gave it.
 * @param tool The tool's name as the server lists it.
 * @returns A name matching `^[A-Za-z0-9_-]{1,64}$`.
 * @throws {TypeError} When the server's or the tool's name is empty.
 *
 * @example Prefix, replace, shorten
 * ```ts
 * import { mcpToolName } from "@salvor/tools/mcp";
 * import assert from "node:assert/strict";
 *
 * assert.equal(mcpToolName("files", "read_file"), "files__read_file");
 * assert.match(mcpToolName("my server", "tools/list.all"), /^my_server__tools_list_all_[0-9a-f]{8}$/);
 * assert.notEqual(mcpToolName("search", "検索"), mcpToolName("search", "翻訳"));
 * const long = mcpToolName("files", "x".repeat(100));
 * assert.equal(long.length, 64);
 * assert.equal(long, mcpToolName("files", "x".repeat(100)));
 * ```
 */
export function mcpToolName(server: string, tool: string): string {
  if (typeof server !== "string" || server === "") {
    throw new TypeError(
      `Cannot name an MCP tool as the server name must be a non-empty string: current value is ${
        JSON.stringify(server)
      }`,
    );
  }
  if (typeof tool !== "string" || tool === "") {
    throw new TypeError(
      `Cannot name a tool of MCP server "${server}" as its name must be a non-empty string: current value is ${
        JSON.stringify(tool)
      }`,
    );
  }
  const exact = `${server}__${tool}`;
  const name = `${server.replace(UNSAFE, "_")}__${tool.replace(UNSAFE, "_")}`;
  if (name === exact && name.length <= MAX_TOOL_NAME_LENGTH) return name;
  const hash = fnv1a(`${server}\u0000${tool}`);
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}
