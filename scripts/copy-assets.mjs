// Copies the files the package reads at run time into dist/, next to the modules that load
// them: tsc compiles .ts only.
import { cpSync } from "node:fs";
import { RUNTIME_ASSETS } from "./assets.mjs";

for (const asset of RUNTIME_ASSETS) cpSync(`src/${asset}`, `dist/${asset}`, { recursive: true });
