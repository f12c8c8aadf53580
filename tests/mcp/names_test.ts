import assert from "node:assert/strict";
import { fc } from "../dev_deps.ts";
import { mcpToolName } from "../../mcp.ts";

Deno.test("mcpToolName() prefixes the server and replaces characters providers refuse", () => {
  assert.equal(mcpToolName("files", "read_file"), "files__read_file");
  assert.match(mcpToolName("my.server", "get/item v2"), /^my_server__get_item_v2_[0-9a-f]{8}$/);
  assert.match(mcpToolName("s", "ünïcode-ok"), /^s___n_code-ok_[0-9a-f]{8}$/);
});

Deno.test("mcpToolName() shortens long names to 64 characters with a stable hash that tells them apart", () => {
  const a = mcpToolName("server", `${"x".repeat(80)}a`);
  const b = mcpToolName("server", `${"x".repeat(80)}b`);
  assert.equal(a.length, 64);
  assert.notEqual(a, b);
  assert.equal(a, mcpToolName("server", `${"x".repeat(80)}a`));
  assert.match(a, /^server__x+_[0-9a-f]{8}$/);
});

Deno.test("mcpToolName() refuses an empty server or tool name", () => {
  assert.throws(() => mcpToolName("", "tool"), TypeError);
  assert.throws(() => mcpToolName("server", ""), TypeError);
});

Deno.test("mcpToolName() always yields a provider-safe name of at most 64 characters", () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1, maxLength: 200 }), (server, tool) => {
      assert.match(mcpToolName(server, tool), /^[A-Za-z0-9_-]{1,64}$/);
    }),
  );
});

Deno.test("mcpToolName() gives two non-ASCII names two names, the same on every call", () => {
  const search = mcpToolName("jp", "検索");
  const translate = mcpToolName("jp", "翻訳");
  assert.notEqual(search, translate);
  assert.match(search, /^jp___{2}_[0-9a-f]{8}$/);
  assert.equal(search, mcpToolName("jp", "検索"));
});

Deno.test("mcpToolName() maps distinct tool names of one server to distinct, stable names", () => {
  fc.assert(
    fc.property(
      fc.string({ minLength: 1, maxLength: 20 }),
      fc.string({ unit: "binary", minLength: 1, maxLength: 100 }),
      fc.string({ unit: "binary", minLength: 1, maxLength: 100 }),
      (server, a, b) => {
        fc.pre(a !== b);
        const named = mcpToolName(server, a);
        assert.notEqual(named, mcpToolName(server, b));
        assert.equal(named, mcpToolName(server, a));
        assert.match(named, /^[A-Za-z0-9_-]{1,64}$/);
      },
    ),
    { numRuns: 2_000 },
  );
});
