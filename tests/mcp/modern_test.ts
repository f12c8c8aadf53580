// The client against 2026-07-28 servers built on the SDK's v2 server: the
// era is negotiated without a second spawn, input requests park as sealed
// records that resume in another process, round after round, and the
// protocol's failures stay data.

import assert from "node:assert/strict";
import { type ProgressEvent, type SuspendedCall, ToolSet } from "../../mod.ts";
import { connectMcpServer, type McpInputRequest } from "../../mcp.ts";
import { MODERN_SEAL_KEY, modernFixture } from "./fixtures/_modern.ts";
import { livingChildren, serverEnv, startListeningServer, TEST_LOCK } from "./_helpers.ts";

const RESUMER = new URL("./fixtures/resume_client.ts", import.meta.url).pathname;
const HTTP_SERVER = new URL("./fixtures/modern_server.ts", import.meta.url).pathname;

/** Resumes a record in a new process, as a host restarted since the call was parked. */
async function resumeElsewhere(record: SuspendedCall, answers: unknown): Promise<unknown> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", TEST_LOCK, "--allow-all", "--no-prompt", RESUMER],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify({ record, answers })));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return JSON.parse(new TextDecoder().decode(stdout));
}

Deno.test("a 2026-07-28 stdio server is reached without initialize, spawned once, and says which revision it speaks", async () => {
  const spawns = await Deno.makeTempFile();
  try {
    await using server = await connectMcpServer(modernFixture({ MODERN_FIXTURE_SPAWNS: spawns }));
    assert.equal(server.era, "modern");
    assert.equal(server.protocolVersion, "2026-07-28");
    assert.equal(server.prior?.kind, "modern");
    const tools = server.register(new ToolSet());
    const done = await tools.call({ id: "1", name: "modern__echo", arguments: { text: "hi" } });
    assert.deepEqual(done.type === "output" && done.result.content, [{ type: "text", text: "hi" }]);
    assert.equal(await Deno.readTextFile(spawns), "started\n");
  } finally {
    await Deno.remove(spawns);
  }
});

Deno.test("a tool that asks twice parks two sealed records, each resumed in a new process, to its result", async () => {
  await using server = await connectMcpServer(modernFixture());
  const tools = server.register(new ToolSet({ seal: { key: MODERN_SEAL_KEY } }));
  const first = await tools.call({ id: "trip", name: "modern__book", arguments: { traveller: "Ada" } });
  assert.equal(first.type, "suspended");
  if (first.type !== "suspended") return;
  const record = JSON.parse(JSON.stringify(first.suspended)) as SuspendedCall;
  assert.ok(record.seal, "the record is sealed");
  assert.match(record.reason, /Where does Ada go\?/);
  const payload = record.payload as { inputRequests: Record<string, McpInputRequest>; requestState: string };
  assert.deepEqual(Object.keys(payload.inputRequests), ["where"]);
  assert.equal(typeof payload.requestState, "string");

  // An answer that does not meet the server's requested schema is refused before anything is sent.
  const wrong = await resumeElsewhere(record, { where: { action: "accept", content: { city: 7 } } }) as {
    type: string;
    failure?: { kind: string };
  };
  assert.equal(wrong.type === "failed" && wrong.failure?.kind, "invalid_input");

  const second = await resumeElsewhere(record, { where: { action: "accept", content: { city: "Lisbon" } } }) as {
    type: string;
    suspended: SuspendedCall;
  };
  assert.equal(second.type, "suspended");
  assert.match(second.suspended.reason, /Book Lisbon for Ada\?/);
  const done = await resumeElsewhere(second.suspended, { confirm: { action: "accept", content: { ok: true } } });
  assert.deepEqual(
    (done as { type: string; result: { content: unknown } }).result.content,
    [{ type: "text", text: "Booked Lisbon for Ada." }],
  );
});

Deno.test("a tampered requestState is refused by the server and ends as a failed terminal", async () => {
  await using server = await connectMcpServer(modernFixture());
  const tools = server.register(new ToolSet());
  const first = await tools.call({ id: "trip", name: "modern__book", arguments: { traveller: "Ada" } });
  assert.equal(first.type, "suspended");
  if (first.type !== "suspended") return;
  const payload = first.suspended.payload as { requestState: string };
  const state = payload.requestState;
  const tampered = { ...first.suspended, payload: { ...payload, requestState: `${state.slice(0, -4)}AAAA` } };
  const done = await tools.resume(tampered, { where: { action: "accept", content: { city: "Lisbon" } } });
  assert.equal(done.type, "failed");
  assert.match(done.type === "failed" ? done.failure.message : "", /requestState/);
});

Deno.test("a live onInputRequest answers both rounds at once, without parking", async () => {
  const asked: string[] = [];
  await using server = await connectMcpServer({
    ...modernFixture(),
    onInputRequest: (request) => {
      asked.push(String(request.params?.message));
      return request.params?.message === "Where does Ada go?"
        ? { action: "accept", content: { city: "Oslo" } }
        : { action: "accept", content: { ok: true } };
    },
  });
  const tools = server.register(new ToolSet());
  const done = await tools.call({ id: "trip", name: "modern__book", arguments: { traveller: "Ada" } });
  assert.deepEqual(done.type === "output" && done.result.content, [{ type: "text", text: "Booked Oslo for Ada." }]);
  assert.deepEqual(asked, ["Where does Ada go?", "Book Oslo for Ada?"]);
});

Deno.test("a long call reports progress and a timeout cancels it", async () => {
  await using server = await connectMcpServer(modernFixture());
  const tools = server.register(new ToolSet());
  const progress: ProgressEvent[] = [];
  const done = await tools.call({ id: "slow", name: "modern__slow", arguments: {} }, {
    timeoutMs: 600,
    onProgress: (event) => progress.push(event),
  });
  assert.equal(done.type === "failed" && done.failure.kind, "timeout");
  assert.ok(progress.length >= 2, `progress events: ${progress.length}`);
  assert.deepEqual(progress.slice(0, 2).map((event) => event.progress), [1, 2]);
});

Deno.test("over Streamable HTTP a 2026-07-28 server answers statelessly and receives the caller's traceparent", async () => {
  await using http = await startListeningServer(
    Deno.execPath(),
    ["run", TEST_LOCK, "--allow-net=127.0.0.1", "--allow-env", "--no-prompt", HTTP_SERVER, "http"],
    { ...Deno.env.toObject(), ...serverEnv() },
    (output) => {
      const port = /listening on port (\d+)/.exec(output)?.[1];
      return port === undefined ? undefined : Number(port);
    },
  );
  await using server = await connectMcpServer({ name: "modern", url: http.url });
  assert.equal(server.era, "modern");
  assert.equal(server.protocolVersion, "2026-07-28");
  const tools = server.register(new ToolSet());
  const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  const done = await tools.call({ id: "1", name: "modern__echo", arguments: { text: "hi" } }, {
    extensions: { traceparent },
  });
  assert.equal(done.type, "output");
  const meta = done.type === "output" ? (done.result.details as { meta?: Record<string, unknown> }).meta : undefined;
  assert.equal((meta?.seenMeta as Record<string, unknown> | undefined)?.traceparent, traceparent);
});

Deno.test("no child process of this test file survives it", async () => {
  assert.deepEqual(await livingChildren(), []);
});
