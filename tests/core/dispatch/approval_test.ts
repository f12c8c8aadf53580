import assert from "node:assert/strict";
import * as v from "valibot";
import {
  approvalByEffects,
  type ApprovalGate,
  defineJsonTool,
  defineTool,
  type Effect,
  type ExecutionSemantics,
  type SuspendedCall,
  ToolSet,
} from "../../../mod.ts";

function tool(name: string, effects: Effect[], semantics?: Partial<ExecutionSemantics>) {
  return defineJsonTool({
    name,
    description: name,
    inputSchema: { type: "object" },
    effects,
    semantics,
    run: () => ({ ran: name }),
  });
}

const TOOLS = [
  tool("pure", []),
  tool("read_file", ["fs.read"]),
  tool("lookup", ["external.read"]),
  tool("write_file", ["fs.write"]),
  tool("delete_file", ["fs.delete"]),
  tool("spawn", ["process.spawn"]),
  tool("secret", ["credential.read"]),
  tool("fetch", ["network.request"]),
  tool("put", ["external.mutation"], { idempotency: "idempotent" }),
  tool("charge", ["billing.charge"]),
];

async function outcomes(approve: ApprovalGate) {
  const tools = new ToolSet({ approve }).register(...TOOLS);
  const ends: Record<string, string> = {};
  for (const { descriptor: { name } } of TOOLS) {
    const end = await tools.call({ id: name, name, arguments: {} });
    ends[name] = end.type === "failed" ? `failed ${end.failure.kind}` : end.type;
  }
  return ends;
}

Deno.test("approvalByEffects() lets reads and pure tools run and parks writes, deletes, spawns, secrets, non-idempotent and unknown effects", async () => {
  assert.deepEqual(await outcomes(approvalByEffects()), {
    pure: "output",
    read_file: "output",
    lookup: "output",
    write_file: "suspended",
    delete_file: "suspended",
    spawn: "suspended",
    secret: "suspended",
    fetch: "suspended",
    put: "output",
    charge: "suspended",
  });
});

Deno.test("approvalByEffects() says why in the record and gives the person the tool, its effects and its input", async () => {
  const tools = new ToolSet({ approve: approvalByEffects() }).register(...TOOLS);
  const reasons: Record<string, string> = {};
  for (const name of ["write_file", "fetch", "charge"]) {
    const end = await tools.call({ id: name, name, arguments: { path: "a.txt" } });
    assert.equal(end.type, "suspended");
    const record: SuspendedCall = JSON.parse(JSON.stringify(end.type === "suspended" && end.suspended));
    reasons[name] = record.reason;
    assert.equal(record.origin, "approval");
    assert.deepEqual(record.payload, {
      tool: name,
      effects: tools.descriptor(name)!.effects,
      input: { path: "a.txt" },
    });
  }
  assert.deepEqual(reasons, {
    write_file: 'The call to "write_file" needs approval as it declares fs.write',
    fetch: 'The call to "fetch" needs approval as it is not idempotent',
    charge: 'The call to "charge" needs approval as it declares billing.charge, which this host does not know',
  });
});

Deno.test("approvalByEffects() parks a call whose input is not JSON within the limits, its payload saying why it leaves it out", async () => {
  const schedule = defineTool({
    name: "schedule_delete",
    description: "Deletes a file at a time.",
    inputSchema: v.object({ path: v.string(), at: v.pipe(v.string(), v.transform((at) => new Date(at))) }),
    effects: ["fs.delete"],
    run: ({ path }) => ({ scheduled: path }),
  });
  const tools = new ToolSet({ approve: approvalByEffects() }).register(schedule, tool("write_file", ["fs.write"]));
  const calls = [
    // A transform's Date is no JSON.
    { id: "1", name: "schedule_delete", arguments: { path: "a", at: "2025-01-01T10:00:00Z" } },
    // Within the limit as arguments, past it with the payload's tool and effects beside it.
    { id: "2", name: "write_file", arguments: JSON.stringify({ text: "x".repeat(256 * 1024 - 20) }) },
  ];
  const omitted = [/^at \/input\/at, .*a Date$/, /^at \/input\/text, .*exceeds 262144 bytes/];
  for (const [i, call] of calls.entries()) {
    const end = await tools.call(call);
    assert.equal(end.type, "suspended", JSON.stringify(end).slice(0, 300));
    const { input, payload } = end.type === "suspended" ? end.suspended : {};
    const { inputOmitted, ...rest } = payload as { inputOmitted: string };
    assert.deepEqual(rest, { tool: call.name, effects: tools.descriptor(call.name)!.effects });
    assert.match(inputOmitted, omitted[i]);
    // The record keeps the call's arguments.
    assert.ok(input !== undefined);
  }
});

Deno.test("approvalByEffects() holds its payload to the limits of the set that asks, not the default ones", async () => {
  const write = tool("write_file", ["fs.write"]);
  const payloadOf = async (limits: { maxBytes: number; maxDepth: number }, text: string) => {
    const tools = new ToolSet({ approve: approvalByEffects(), limits }).register(write);
    const end = await tools.call({ id: "1", name: "write_file", arguments: { text } });
    assert.equal(end.type, "suspended", JSON.stringify(end).slice(0, 300));
    return (end.type === "suspended" ? end.suspended.payload : undefined) as Record<string, unknown>;
  };
  // Within a tight set's limits as arguments, past them with the payload's tool and effects beside it.
  const tight = await payloadOf({ maxBytes: 300, maxDepth: 8 }, "x".repeat(260));
  assert.match(tight.inputOmitted as string, /^at \/input\/text, .*exceeds 300 bytes/);
  // Past the default limits, within a loose set's.
  const text = "x".repeat(300 * 1024);
  const loose = await payloadOf({ maxBytes: 1024 * 1024, maxDepth: 8 }, text);
  assert.deepEqual(loose.input, { text });
  // Asked without a set's limits, the gate holds its payload to the default ones.
  const alone = await approvalByEffects()(write.descriptor, { text }) as { payload: Record<string, unknown> };
  assert.match(alone.payload.inputOmitted as string, /exceeds 262144 bytes/);
});

Deno.test("a set hands every gate it asks a frozen copy of its limits, and approvalByEffects() hands them to describe()", async () => {
  const limits = { maxBytes: 4096, maxDepth: 8, maxContainers: 100 };
  const seen: unknown[] = [];
  const approve = approvalByEffects({
    rule: () => undefined,
    describe: (_descriptor, _input, why, given) => (seen.push(given), { reason: why }),
  });
  const tools = new ToolSet({
    approve: (descriptor, input, context) => (seen.push(context), approve(descriptor, input, context)),
    limits,
  }).register(tool("write_file", ["fs.write"]));
  assert.equal((await tools.call({ id: "1", name: "write_file" })).type, "suspended");
  // What the host changes of its object afterwards is not the set's.
  limits.maxBytes = 1;
  assert.equal((await tools.call({ id: "2", name: "write_file" })).type, "suspended");
  const [context, given, again] = seen as [{ limits: typeof limits }, typeof limits, { limits: typeof limits }];
  assert.deepEqual(context, { limits: { maxBytes: 4096, maxDepth: 8, maxContainers: 100 } });
  assert.ok(Object.isFrozen(context) && Object.isFrozen(context.limits));
  assert.equal(given, context.limits);
  assert.deepEqual(again, context);
});

Deno.test("approvalByEffects() asks about the effects it is given, and words the request as describe() says", async () => {
  const approve = approvalByEffects({
    ask: ["fs.delete"],
    describe: (_descriptor, input, why) => ({
      reason: `Delete? (${why})`,
      payload: { diff: `- ${JSON.stringify(input)}` },
    }),
  });
  const ends = await outcomes(approve);
  assert.equal(ends.write_file, "suspended", "fs.write is still not idempotent");
  assert.equal(ends.secret, "output");
  const tools = new ToolSet({ approve }).register(...TOOLS);
  const end = await tools.call({ id: "1", name: "delete_file", arguments: { path: "a" } });
  assert.equal(end.type === "suspended" && end.suspended.reason, "Delete? (it declares fs.delete)");
  assert.deepEqual(end.type === "suspended" && end.suspended.payload, { diff: '- {"path":"a"}' });
});

Deno.test("approvalByEffects() asks the host's rule first: its decision stands, undefined leaves the call to the effects", async () => {
  const approve = approvalByEffects({
    rule: (descriptor) =>
      descriptor.name === "write_file"
        ? true
        : descriptor.name === "read_file"
        ? { decision: "deny", reason: "reads are off today" }
        : undefined,
  });
  const ends = await outcomes(approve);
  assert.equal(ends.write_file, "output");
  assert.equal(ends.read_file, "failed policy_required");
  assert.equal(ends.delete_file, "suspended");
  assert.equal(ends.pure, "output");
  const denied = await new ToolSet({ approve }).register(...TOOLS).call({ id: "1", name: "read_file" });
  assert.equal(
    denied.type === "failed" && denied.failure.modelText,
    'The call to "read_file" is not allowed: reads are off today.',
  );
});

Deno.test("approvalByEffects() refuses options of the wrong type when it is built", () => {
  assert.throws(() => approvalByEffects({ ask: "fs.write" as never }), /Cannot build the gate as ask must be an array/);
  assert.throws(() => approvalByEffects({ rule: 1 as never }), /rule must be a function: current value is number/);
  assert.throws(() => approvalByEffects({ describe: {} as never }), /describe must be a function/);
});

Deno.test("a gate's verdict with a reason and payload is kept in the record, and survives JSON to resume", async () => {
  const write = tool("write_file", ["fs.write"]);
  const approve: ApprovalGate = () => ({ decision: "suspend", reason: "Overwrite a.txt?", payload: { lines: 3 } });
  const parked = await new ToolSet({ approve }).register(write).call({ id: "1", name: "write_file" });
  assert.equal(parked.type, "suspended");
  const record: SuspendedCall = JSON.parse(JSON.stringify(parked.type === "suspended" && parked.suspended));
  assert.equal(record.reason, "Overwrite a.txt?");
  assert.deepEqual(record.payload, { lines: 3 });
  const done = await new ToolSet().register(write).resume(record, { approved: true });
  assert.equal(done.type, "output");
});

Deno.test("a gate's verdict payload is read once, into the copy the record keeps; an undefined member is left out", async () => {
  const write = tool("write_file", ["fs.write"]);
  let reads = 0;
  const payload = {
    note: undefined,
    get lines(): unknown {
      reads++;
      return reads === 1 ? 3 : () => "a function JSON cannot carry";
    },
  };
  const parked = await new ToolSet({ approve: () => ({ decision: "suspend", payload }) }).register(write).call({
    id: "1",
    name: "write_file",
  });
  assert.equal(parked.type, "suspended", JSON.stringify(parked));
  assert.deepEqual(parked.type === "suspended" && parked.suspended.payload, { lines: 3 });
  assert.equal(reads, 1);
});

Deno.test("a gate's malformed verdict fails the call closed as policy_required, saying why", async () => {
  const write = tool("write_file", ["fs.write"]);
  const cases: [unknown, RegExp][] = [
    [{ decision: "maybe" }, /decision must be "allow", "deny" or "suspend": current value is "maybe"/],
    [{ decision: "suspend", reason: 7 }, /reason must be a string/],
    [{ decision: "suspend", payload: { when: () => 1 } }, /payload must be bounded JSON/],
    ["yes", /must be a boolean, "suspend" or a verdict object: current value is "yes"/],
    [
      {
        get decision(): string {
          throw new Error("getter");
        },
      },
      /could not be read: Error: getter/,
    ],
  ];
  for (const [verdict, message] of cases) {
    const end = await new ToolSet({ approve: () => verdict as never }).register(write).call({
      id: "1",
      name: "write_file",
    });
    assert.equal(end.type === "failed" && end.failure.kind, "policy_required");
    assert.match(end.type === "failed" ? end.failure.message : "", message);
    assert.equal(end.type === "failed" && end.failure.modelText, 'The call to "write_file" was not approved.');
  }
});

Deno.test("a gate's allow verdict runs the call; a long reason is cut", async () => {
  const write = tool("write_file", ["fs.write"]);
  const ran = await new ToolSet({ approve: () => ({ decision: "allow" }) }).register(write).call({
    id: "1",
    name: "write_file",
  });
  assert.equal(ran.type, "output");
  const long = "x".repeat(5000);
  const parked = await new ToolSet({ approve: () => ({ decision: "suspend", reason: long }) }).register(write)
    .call({ id: "1", name: "write_file" });
  assert.equal(parked.type === "suspended" && parked.suspended.reason.length, 1000);
});
