// The core performs no IO: its tests run with no Deno permissions at all,
// and this test fails when that run is given any.

import assert from "node:assert/strict";

const PERMISSIONS = ["read", "write", "net", "env", "run", "ffi", "sys", "import"] as const;

Deno.test("the core's tests run with no Deno permissions", () => {
  for (const name of PERMISSIONS) {
    const { state } = Deno.permissions.querySync({ name } as Deno.PermissionDescriptor);
    assert.notEqual(state, "granted", `the core tests were given --allow-${name}`);
  }
});
