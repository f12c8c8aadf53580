// What each bridge and the OpenTelemetry entrypoint add to an app's bundle,
// min + gzip, over the core: the bundle of the core and the entrypoint,
// less the bundle of the core alone. Peers are never bundled: the bridges
// import no framework, and @opentelemetry/api is the app's own copy.

import { gzipSync } from "node:zlib";
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);
const LIMIT_BYTES = 3_000;
const PEERS = ["@opentelemetry/api"];

async function bundledSize(exports: readonly string[]): Promise<number> {
  const dir = await Deno.makeTempDir({ dir: ROOT.pathname, prefix: ".size_" });
  try {
    const entry = `${dir}/entry.ts`;
    await Deno.writeTextFile(entry, exports.map((file) => `export * from "../${file}";\n`).join(""));
    const output = `${dir}/out.js`;
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--platform=browser",
        "--format=esm",
        "--minify",
        ...PEERS.map((name) => `--external=${name}`),
        `--output=${output}`,
        entry,
      ],
      cwd: ROOT,
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(code, 0, new TextDecoder().decode(stderr));
    return gzipSync(await Deno.readFile(output), { level: 9 }).byteLength;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const core = bundledSize(["mod.ts"]);

for (const entry of ["ai_sdk.ts", "openai_agents.ts", "langchain.ts", "mastra.ts", "otel.ts"]) {
  Deno.test(`${entry} adds at most 3 KB (min + gzip) to the core`, async () => {
    const [base, withEntry] = await Promise.all([core, bundledSize(["mod.ts", entry])]);
    const added = withEntry - base;
    console.log(`${entry}: +${added} bytes over the core's ${base}`);
    assert.ok(added <= LIMIT_BYTES, `${entry} adds ${added} bytes`);
  });
}
