import assert from "node:assert/strict";
import { chunkImports, loadedWith } from "../../tasks/_split_bundle.ts";

// As Deno's bundler writes them, minified: a named import, a bare import, a re-export and a dynamic import.
const MAIN = 'import{a as b}from"./chunk-A.js";import"./chunk-B.js";export{c}from"./chunk-C.js";' +
  'let d=()=>import("./lazy-D.js");var s="import(x)";';

Deno.test("chunkImports() tells chunks loaded with a file from those it imports on first need", () => {
  assert.deepEqual(chunkImports(MAIN), { loads: ["chunk-A.js", "chunk-B.js", "chunk-C.js"], defers: ["lazy-D.js"] });
  assert.deepEqual(chunkImports("var a=1;"), { loads: [], defers: [] });
});

Deno.test("loadedWith() follows static imports only, through chunks that import chunks", () => {
  const files = new Map([
    ["mod.js", chunkImports(MAIN)],
    ["chunk-A.js", chunkImports('import{x}from"./chunk-E.js";')],
    ["chunk-B.js", chunkImports("")],
    ["chunk-C.js", chunkImports("")],
    ["chunk-E.js", chunkImports("")],
    ["lazy-D.js", chunkImports('import{a}from"./chunk-A.js";')],
  ]);
  assert.deepEqual(
    [...loadedWith(files, "mod.js")].sort(),
    ["chunk-A.js", "chunk-B.js", "chunk-C.js", "chunk-E.js", "mod.js"],
  );
  assert.throws(() => loadedWith(new Map([["mod.js", chunkImports(MAIN)]]), "mod.js"), /chunk-\w\.js is not among/);
});
