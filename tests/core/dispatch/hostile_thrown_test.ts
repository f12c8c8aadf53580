import assert from "node:assert/strict";
import { defineJsonTool, type TerminalEvent, ToolSet } from "../../../mod.ts";
import type { DynTool } from "../../../dyn.ts";
import type { ExecutionEvent } from "../../../mod.ts";

/** An error-like value no message can be read from: `message`, `toString` and `name` all throw. */
function unreadable(): Error {
  const value = Object.create(Error.prototype, {
    message: {
      get: () => {
        throw new Error("message getter");
      },
    },
    name: {
      get: () => {
        throw new Error("name getter");
      },
    },
    toString: {
      value: () => {
        throw new Error("toString");
      },
    },
  });
  return value as Error;
}

const HOSTILE_THROWN: readonly [string, () => unknown][] = [
  ["an error-like value whose message and toString throw", unreadable],
  ["a revoked Proxy", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  }],
  ["an object whose toString returns an object", () => ({ toString: () => ({}), valueOf: () => ({}) })],
  ["a symbol", () => Symbol("thrown")],
];

const spec = { description: "Throws.", inputSchema: { type: "object" }, effects: [] } as const;

function thrower(name: string, mode: "sync" | "async", value: () => unknown) {
  return defineJsonTool({
    ...spec,
    name,
    run: mode === "sync"
      ? () => {
        throw value();
      }
      : async () => {
        await Promise.resolve();
        throw value();
      },
  });
}

function customTool(name: string, mode: "execute" | "next" | "reject", value: () => unknown): DynTool {
  const base = defineJsonTool({ ...spec, name, run: () => ({}) });
  return {
    descriptor: base.descriptor,
    execute(): AsyncIterable<ExecutionEvent> {
      if (mode === "execute") throw value();
      return {
        [Symbol.asyncIterator]: () => ({
          next: mode === "next"
            ? () => {
              throw value();
            }
            : () => Promise.reject(value()),
        }),
      };
    },
  };
}

/** Runs a scenario and asserts no unhandled rejection escaped it. */
async function noUnhandled(run: () => Promise<void>): Promise<void> {
  const seen: unknown[] = [];
  const listener = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    seen.push(event.reason);
  };
  globalThis.addEventListener("unhandledrejection", listener);
  try {
    await run();
    // Give a stray rejection a few turns to surface.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  } finally {
    globalThis.removeEventListener("unhandledrejection", listener);
  }
  assert.deepEqual(seen, []);
}

async function bothWays(tools: ToolSet, name: string): Promise<TerminalEvent[]> {
  const ended = await tools.call({ id: "1", name });
  const events = [];
  for await (const event of tools.stream({ id: "2", name })) events.push(event);
  assert.equal(events.length, 1);
  return [ended, events[0] as TerminalEvent];
}

for (const [what, value] of HOSTILE_THROWN) {
  Deno.test(`ToolSet ends in one failed terminal when a handler throws ${what}`, async () => {
    await noUnhandled(async () => {
      const tools = new ToolSet().register(thrower("sync", "sync", value), thrower("async", "async", value));
      for (const name of ["sync", "async"]) {
        for (const end of await bothWays(tools, name)) {
          assert.equal(end.type === "failed" && end.failure.kind, "handler");
        }
      }
    });
  });

  Deno.test(`ToolSet ends in one failed terminal when an approval gate throws ${what}`, async () => {
    await noUnhandled(async () => {
      const tools = new ToolSet({
        approve: () => {
          throw value();
        },
      }).register(thrower("sync", "sync", value));
      const asyncGate = new ToolSet({ approve: () => Promise.reject(value()) }).register(
        thrower("sync", "sync", value),
      );
      for (const set of [tools, asyncGate]) {
        for (const end of await bothWays(set, "sync")) {
          assert.equal(end.type === "failed" && end.failure.kind, "policy_required");
        }
      }
    });
  });

  Deno.test(`ToolSet ends in one failed terminal when a custom execute() throws ${what}`, async () => {
    await noUnhandled(async () => {
      const tools = new ToolSet().register(
        customTool("execute", "execute", value),
        customTool("next", "next", value),
        customTool("reject", "reject", value),
      );
      for (const name of ["execute", "next", "reject"]) {
        for (const end of await bothWays(tools, name)) {
          assert.equal(end.type === "failed" && end.failure.kind, "contract");
        }
      }
    });
  });
}

Deno.test("a handler that returns a value which throws as it is read broke the contract; it did not fail as a handler", async () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  const tool = defineJsonTool({
    name: "revoked",
    description: "Returns a revoked proxy.",
    inputSchema: { type: "object" },
    effects: [],
    run: () => proxy,
  });
  const end = await new ToolSet().register(tool).call({ id: "1", name: "revoked" });
  // A `handler` failure reads as "the tool ran and failed", which a retry policy may retry.
  assert.equal(end.type === "failed" && end.failure.kind, "contract");
  assert.match(end.type === "failed" ? end.failure.message : "", /revoked/);
});
