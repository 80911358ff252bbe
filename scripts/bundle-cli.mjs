// Bundles the `webfetch` executable into dist/bin/: its entry (webfetch.js), the conversion
// thread's entry (worker.js) and the chunks they share, so a command starts by reading a few
// files instead of resolving and compiling hundreds of modules. A module the CLI loads only when
// it is used stays a chunk of its own, loaded then. Packages that are large and loaded late, or
// optional, or native, are not bundled: they load from node_modules as before. Reads the
// compiled dist/ (run after tsc), and copies the files the bundled modules read at run time next
// to them, since they look for them beside their own file.
import { cpSync, readFileSync, rmSync } from "node:fs";
import { basename } from "node:path";
import { build } from "esbuild";
import { RUNTIME_ASSETS } from "./assets.mjs";

const OUT = "dist/bin";
const { optionalDependencies = {} } = JSON.parse(readFileSync("package.json", "utf8"));

/** Loaded late and large (models, PDF, tracing, the browser) or optional: left in node_modules. */
const EXTERNAL = [
  ...Object.keys(optionalDependencies),
  "ai",
  "@ai-sdk/*",
  "unpdf",
  "gpt-tokenizer",
  "gpt-tokenizer/*",
  "@opentelemetry/api",
];

rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: { webfetch: "dist/cli/bin.js", worker: "dist/convert/worker.js" },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  // Bundled CommonJS packages call require() for Node's own modules, which ES modules lack.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
  // No source maps: they would name bundled packages' files, which an installed package lacks.
  sourcemap: false,
  logLevel: "warning",
});

// A bundled module reads its file beside its chunk, in dist/bin/, by the file's own name.
for (const asset of RUNTIME_ASSETS) {
  cpSync(`dist/${asset}`, `${OUT}/${basename(asset)}`, { recursive: true });
}
