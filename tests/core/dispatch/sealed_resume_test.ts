import assert from "node:assert/strict";
import * as v from "valibot";
import {
  defineJsonTool,
  defineTool,
  MemoryNonceStore,
  type SealOptions,
  suspend,
  type SuspendedCall,
  type TerminalEvent,
  ToolSet,
} from "../../../mod.ts";
import { codeTool } from "../../fixtures/code_tool.ts";

const KEY = { id: "k1", secret: "0123456789abcdef0123456789abcdef" };
const NEW_KEY = { id: "k2", secret: "fedcba9876543210fedcba9876543210" };

let runs = 0;
const write = defineJsonTool({
  name: "write_file",
  description: "Writes a file once a person confirms.",
  inputSchema: {
    type: "object",
    properties: { path: { type: "string" }, request: { type: "string" } },
    required: ["path"],
  },
  idempotencyKey: "request",
  effects: ["fs.write"],
  run: (input: { path: string }, ctx) => {
    runs++;
    if (ctx.resume === undefined) {
      return suspend({
        reason: `Overwrite ${input.path}?`,
        resumeSchema: { type: "object", properties: { overwrite: { type: "boolean" } }, required: ["overwrite"] },
        payload: { existingBytes: 18 },
      });
    }
    return { written: input.path };
  },
});
const ARGS = { path: "notes.txt", request: "req_1" };

function sealedSet(seal: Partial<SealOptions> = {}, approve?: () => "suspend"): ToolSet {
  return new ToolSet({ seal: { key: KEY, ...seal }, ...(approve ? { approve } : {}) }).register(write);
}

async function park(tools: ToolSet, subject?: string): Promise<SuspendedCall> {
  const end = await tools.call({ id: "c1", name: "write_file", arguments: ARGS }, subject ? { subject } : {});
  assert.equal(end.type, "suspended", JSON.stringify(end));
  return JSON.parse(JSON.stringify((end as Extract<TerminalEvent, { type: "suspended" }>).suspended));
}

/** Resumes and asserts the resume was refused before the handler ran. */
async function refused(tools: ToolSet, record: unknown, answer: unknown, options = {}): Promise<string> {
  const before = runs;
  const end = await tools.resume(record as SuspendedCall, answer, options);
  assert.equal(end.type, "failed", JSON.stringify(end));
  assert.equal(runs, before, "the handler ran");
  return end.type === "failed" ? `${end.failure.kind}: ${end.failure.message}` : "";
}

/** Every path to a leaf of a JSON value, with the value there. */
function leaves(value: unknown, path: string[] = []): [string[], unknown][] {
  if (typeof value !== "object" || value === null) return [[path, value]];
  return Object.entries(value).flatMap(([key, child]) => leaves(child, [...path, key]));
}

function changedAt(record: SuspendedCall, path: string[], leaf: unknown): unknown {
  const copy = structuredClone(record) as unknown as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path.at(-1)!;
  node[last] = typeof leaf === "string"
    ? `${leaf}x`
    : typeof leaf === "number"
    ? leaf + 1
    : typeof leaf === "boolean"
    ? !leaf
    : "x";
  return copy;
}

Deno.test("A sealed set parks a record whose every field is sealed: a change anywhere is refused, the handler never run", async () => {
  for (const approve of [undefined, () => "suspend" as const]) {
    const tools = sealedSet({}, approve);
    const record = await park(tools);
    assert.ok(record.seal);
    const paths = leaves(record);
    for (
      const field of [
        "callId",
        "tool",
        "version",
        "input",
        "reason",
        "resumeSchema",
        "origin",
        "idempotencyKey",
        "seal",
      ]
    ) {
      assert.ok(paths.some(([path]) => path[0] === field), `the record has no ${field}`);
    }
    if (!approve) assert.ok(paths.some(([path]) => path[0] === "payload"));
    for (const [path, leaf] of paths) {
      const why = await refused(
        tools,
        changedAt(record, path, leaf),
        approve ? { approved: true } : { overwrite: true },
      );
      assert.match(why, /^invalid_input: /, `changing /${path.join("/")}: ${why}`);
    }
    // Removing a field is a change too.
    for (const field of Object.keys(record)) {
      const { [field]: _, ...without } = record as unknown as Record<string, unknown>;
      await refused(tools, without, { overwrite: true, approved: true });
    }
    // Untouched, it still resumes (an approved call runs its handler, which asks again): no refusal above used it up.
    const end = await tools.resume(record, approve ? { approved: true } : { overwrite: true });
    assert.equal(end.type, approve ? "suspended" : "output");
  }
});

Deno.test("A sealed record resumes once: a replay is refused, the handler not run again", async () => {
  const tools = sealedSet();
  const record = await park(tools);
  assert.equal((await tools.resume(record, { overwrite: true })).type, "output");
  assert.match(await refused(tools, record, { overwrite: true }), /resumed before/);
});

Deno.test("A sealed record resumes once under a seal's own clock, however far it is from the system's", async () => {
  // The set's own nonce store reads the seal's clock: one on the system's forgot a nonce the seal still found valid.
  for (const offsetMs of [-90_000, -30 * 60 * 60 * 1000, 90_000]) {
    const tools = sealedSet({ ttlMs: 60_000, now: () => Date.now() + offsetMs });
    const record = await park(tools);
    assert.equal((await tools.resume(record, { overwrite: true })).type, "output", `offset ${offsetMs}`);
    assert.match(await refused(tools, record, { overwrite: true }), /resumed before/);
    assert.match(await refused(tools, record, { overwrite: true }), /resumed before/);
  }
});

Deno.test("A sealed record that expires as it is resumed is refused, though a store that forgets expired nonces took its nonce again", async () => {
  let now = Date.now();
  // A store that forgets a nonce the moment it expires, as a key-value store with an expiry does, while the
  // resume's checks take the clock to the record's expiry.
  let expiry = 0;
  const forgetful = { consume: (_nonce: string, expiresAt: number) => (now = expiresAt, expiry = expiresAt, true) };
  const tools = sealedSet({ ttlMs: 60_000, now: () => now, nonces: forgetful });
  const record = await park(tools);
  assert.match(await refused(tools, record, { overwrite: true }), /expired as the record was checked/);
  assert.equal(now, expiry);
  // Within its time, the same store's answer spends it once as ever.
  now -= 30_000;
  const again = sealedSet({ ttlMs: 60_000, now: () => now, nonces: { consume: () => true } });
  assert.equal((await again.resume(await park(again), { overwrite: true })).type, "output");
});

Deno.test("A set refuses a seal whose nonce store has no consume method, as RecordSeal does", () => {
  for (const nonces of [null, {}, { consume: 1 }, "store"]) {
    assert.throws(
      () => new ToolSet({ seal: { key: KEY, nonces: nonces as never } }),
      (error) =>
        error instanceof TypeError &&
        /^Cannot seal records as options\.nonces must have a consume method/.test(error.message),
    );
  }
});

Deno.test("A sealed record of a typed tool with a declared resume schema resumes once too", async () => {
  const confirm = defineTool({
    name: "confirm",
    description: "Goes on once a person confirms.",
    inputSchema: v.object({}),
    resumeSchema: v.object({ ok: v.boolean() }),
    effects: [],
    run: (_input, ctx) => ctx.resume === undefined ? suspend({ reason: "Go on?" }) : { went: true },
  });
  const tools = new ToolSet({ seal: { key: KEY } }).register(confirm);
  const parked = await tools.call({ id: "c1", name: "confirm", arguments: {} });
  assert.equal(parked.type, "suspended");
  if (parked.type !== "suspended") return;
  assert.equal((await tools.resume(parked.suspended, { ok: true })).type, "output");
  const replay = await tools.resume(parked.suspended, { ok: true });
  assert.match(replay.type === "failed" ? replay.failure.message : "", /resumed before/);
});

Deno.test("A sealed record's resume schema is the host's: its patterns run on the built-in RegExp, any pattern", async () => {
  const tools = new ToolSet({ seal: { key: KEY } }).register(codeTool(/^(?:ab|cd)+$/));
  const parked = await tools.call({ id: "c1", name: "redeem", arguments: {} });
  assert.equal(parked.type, "suspended");
  if (parked.type !== "suspended") return;
  const refusedAnswer = await tools.resume(parked.suspended, "abx");
  assert.equal(refusedAnswer.type === "failed" && refusedAnswer.failure.kind, "invalid_input");
  assert.equal((await tools.resume(parked.suspended, "abcdab")).type, "output");
});

Deno.test("A resume refused before the handler starts does not use up a still valid record", async () => {
  const tools = sealedSet();
  const record = await park(tools);
  await refused(tools, record, { overwrite: "yes" });
  await refused(tools, record, { overwrite: true }, { timeoutMs: -1 });
  assert.equal((await tools.resume(record, { overwrite: true })).type, "output");
});

Deno.test("An approval's no uses up the record: a person's answer is final", async () => {
  const tools = sealedSet({}, () => "suspend");
  const record = await park(tools);
  const denied = await tools.resume(record, { approved: false });
  assert.equal(denied.type === "failed" && denied.failure.kind, "policy_required");
  assert.match(await refused(tools, record, { approved: true }), /resumed before/);
});

Deno.test("A sealed record is refused once it expires (injected clock)", async () => {
  let now = Date.UTC(2030, 0, 1);
  const tools = sealedSet({ ttlMs: 60_000, now: () => now });
  const record = await park(tools);
  now += 60_001;
  assert.match(await refused(tools, record, { overwrite: true }), /expired/);
});

Deno.test("A record sealed for a subject resumes only with that subject", async () => {
  const tools = sealedSet();
  const record = await park(tools, "user_42");
  assert.equal(record.seal?.sub, "user_42");
  assert.match(await refused(tools, record, { overwrite: true }), /subject/);
  assert.match(await refused(tools, record, { overwrite: true }, { subject: "user_7" }), /subject/);
  const end = await tools.resume(record, { overwrite: true }, { subject: "user_42" });
  assert.equal(end.type, "output");
});

Deno.test("A record sealed for no subject is refused when a subject is expected", async () => {
  const tools = sealedSet();
  const record = await park(tools);
  assert.match(await refused(tools, record, { overwrite: true }, { subject: "user_42" }), /subject/);
});

Deno.test("A rotated key: a record sealed with the old key resumes while the old key is in keys, and not after", async () => {
  const nonces = new MemoryNonceStore();
  const record = await park(sealedSet({ nonces }));
  const rotated = sealedSet({ key: NEW_KEY, keys: [KEY], nonces });
  const fresh = await park(rotated);
  assert.equal(fresh.seal?.kid, "k2");
  assert.match(await refused(sealedSet({ key: NEW_KEY, nonces }), record, { overwrite: true }), /unknown_key/);
  assert.equal((await rotated.resume(record, { overwrite: true })).type, "output");
});

Deno.test("A sealed set refuses an unsealed record, and an unsealed set refuses a sealed one", async () => {
  const plain = new ToolSet().register(write);
  const unsealed = await park(plain);
  assert.equal(unsealed.seal, undefined);
  assert.match(await refused(sealedSet(), unsealed, { overwrite: true }), /unsealed/);
  const sealed = await park(sealedSet());
  assert.match(await refused(plain, sealed, { overwrite: true }), /sealed/);
});

Deno.test("An approval resume needs { approved: boolean } whatever resume schema the record carries", async () => {
  // Unsealed, a holder can rewrite the record: widening its schema still does not widen the answer.
  const plain = new ToolSet({ approve: () => "suspend" }).register(write);
  const record = await park(plain);
  const widened = { ...record, resumeSchema: true };
  assert.match(await refused(plain, widened, { anything: 1 }), /resume schema/);
  assert.notEqual((await plain.resume(widened, { approved: true })).type, "failed");
  // Sealed, flipping the origin to skip the approval breaks the seal.
  const tools = sealedSet({}, () => "suspend");
  const sealed = await park(tools);
  assert.match(await refused(tools, { ...sealed, origin: "handler" }, { overwrite: true }), /bad_mac/);
});

Deno.test("A set without a seal refuses a subject rather than ignore it", async () => {
  const plain = new ToolSet().register(write);
  const end = await plain.call({ id: "c1", name: "write_file", arguments: ARGS }, { subject: "user_42" });
  assert.equal(end.type === "failed" && end.failure.kind, "contract");
});

Deno.test("A nonce store that throws refuses the resume, the handler not run", async () => {
  const tools = sealedSet({
    nonces: {
      consume: () => {
        throw new Error("store down");
      },
    },
  });
  const record = await park(tools);
  assert.match(await refused(tools, record, { overwrite: true }), /nonce store failed/);
});
