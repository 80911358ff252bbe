// Copies the non-TypeScript files the package reads at run time (the sub-agent's system prompt)
// into dist/, next to the modules that load them: tsc compiles .ts only.
import { cpSync } from "node:fs";

cpSync("src/llm/prompts", "dist/llm/prompts", { recursive: true });
