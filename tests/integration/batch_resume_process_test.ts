// A turn parked in one process and finished in another: the batch record is
// the only thing that crosses, as a host would keep it in a file or a row.

import assert from "node:assert/strict";
import { runFixture } from "./_fixture_process.ts";

const run = (mode: string, input?: string): Promise<string> => runFixture("batch_process.ts", mode, input);

Deno.test("a batch with two parked calls and three finished resumes in another process with exactly the five results in model order", async () => {
  const stored = await run("run");
  const record = JSON.parse(stored);
  assert.deepEqual(record.calls.map((entry: { terminal: { type: string } }) => entry.terminal.type), [
    "output",
    "suspended",
    "output",
    "suspended",
    "output",
  ]);
  const messages = JSON.parse(await run("resume", stored));
  assert.deepEqual(messages.map((m: { tool_call_id: string }) => m.tool_call_id), [
    "call_1",
    "call_2",
    "call_3",
    "call_4",
    "call_5",
  ]);
  const outputs = messages.map((m: { content: string }) => JSON.parse(m.content));
  assert.deepEqual(outputs.map((o: Record<string, number>) => o.read ?? o.write), [1, 2, 3, 4, 5]);
  // The reads ran in the first process, the writes in the second.
  assert.equal(outputs[0].pid, outputs[2].pid);
  assert.notEqual(outputs[0].pid, outputs[1].pid);
  assert.equal(outputs[1].pid, outputs[3].pid);
});
