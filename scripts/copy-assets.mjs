// Copies the non-TypeScript files the package reads at run time (the sub-agent's system prompt,
// the block scorer's two models, the notice scorer's model, the playground's page, script and
// stylesheet) into dist/, next to the modules that load them: tsc compiles .ts only.
import { cpSync } from "node:fs";

cpSync("src/llm/prompts", "dist/llm/prompts", { recursive: true });
cpSync("src/extract/block-model.json", "dist/extract/block-model.json");
cpSync("src/extract/block-model-other.json", "dist/extract/block-model-other.json");
cpSync("src/extract/notice-model.json", "dist/extract/notice-model.json");
cpSync("src/server/playground", "dist/server/playground", { recursive: true });
