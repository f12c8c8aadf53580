// The demo's native tools: a pure calculator, a reader and a writer over an
// in-memory file system, a long indexing job that reports progress, and a
// web search whose upstream is too slow.

import { defineTool, HandlerError } from "../mod.ts";
import * as v from "valibot";

/** Files the demo's tools read and write; nothing touches the real disk. */
export function demoFiles(): Map<string, string> {
  return new Map([
    ["notes/todo.md", "- ship the tool layer\n- write the README\n"],
    ["notes/ideas.md", "- MCP over HTTP on the edge\n"],
  ]);
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });

/** Makes the native tools, sharing one in-memory file system. */
export function demoTools(files: Map<string, string>) {
  const calculate = defineTool({
    name: "calculate",
    description: "Apply one arithmetic operation to two numbers.",
    inputSchema: v.strictObject({
      op: v.picklist(["add", "sub", "mul", "div"]),
      a: v.number(),
      b: v.number(),
    }),
    outputSchema: v.object({ value: v.number() }),
    effects: [],
    run({ op, a, b }) {
      if (op === "div" && b === 0) {
        throw new HandlerError("division by zero", { retryable: false, modelText: "Cannot divide by zero." });
      }
      const value = op === "add" ? a + b : op === "sub" ? a - b : op === "mul" ? a * b : a / b;
      return { value };
    },
  });

  const readFile = defineTool({
    name: "read_file",
    description: "Read a UTF-8 text file.",
    inputSchema: v.strictObject({ path: v.pipe(v.string(), v.minLength(1)) }),
    outputSchema: v.object({ text: v.string() }),
    effects: ["fs.read"],
    run({ path }) {
      const text = files.get(path);
      if (text === undefined) {
        throw new HandlerError(`ENOENT: ${path}`, {
          code: "ENOENT",
          retryable: false,
          modelText: `No file at "${path}". Known files: ${[...files.keys()].join(", ")}.`,
        });
      }
      return { text };
    },
  });

  // No approval here: the host's gate asks a person about every fs.write.
  const writeFile = defineTool({
    name: "write_file",
    description: "Write a UTF-8 text file.",
    inputSchema: v.strictObject({ path: v.pipe(v.string(), v.minLength(1)), text: v.string() }),
    outputSchema: v.object({ bytes: v.number() }),
    effects: ["fs.write"],
    run({ path, text }) {
      files.set(path, text);
      return { bytes: new TextEncoder().encode(text).length };
    },
  });

  const indexDocs = defineTool({
    name: "index_docs",
    description: "Index every note for search. Takes a moment; reports progress.",
    inputSchema: v.strictObject({
      chunks: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50)), 20),
    }),
    outputSchema: v.object({ indexed: v.number() }),
    effects: ["fs.read"],
    async run({ chunks }, ctx) {
      for (let done = 1; done <= chunks; done++) {
        await sleep(60, ctx.signal);
        ctx.progress({ progress: done, total: chunks, message: `chunk ${done} of ${chunks}` });
      }
      return { indexed: chunks };
    },
  });

  const searchWeb = defineTool({
    name: "search_web",
    description: "Search the web. The upstream is slow today.",
    inputSchema: v.strictObject({ query: v.pipe(v.string(), v.minLength(1)) }),
    effects: ["external.read"],
    timeoutMs: 300,
    async run({ query }, ctx) {
      await sleep(5_000, ctx.signal);
      return { results: [`a page about ${query}`] };
    },
  });

  return [calculate, readFile, writeFile, indexDocs, searchWeb];
}
