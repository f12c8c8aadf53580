// TypeScript, for the build task only: pinned here, outside the runtime import map.
export { default as ts } from "npm:typescript@6.0.3";
