// The non-TypeScript files the package reads at run time, by path under src/: each module looks
// for its file beside itself (the sub-agent's system prompt, the block scorer's two models, the
// playground's page, script and stylesheet).
export const RUNTIME_ASSETS = [
  "llm/prompts",
  "extract/block-model.json",
  "extract/block-model-other.json",
  "server/playground",
];
