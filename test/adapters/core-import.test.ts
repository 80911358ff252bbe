/**
 * `import "webfetch"` stays free of the optional peers: no module reachable from the core entry
 * imports `ai`, `@langchain/core` or the MCP SDK; only their subpath entries do.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/** `from "x"` and `import("x")` specifiers of static and dynamic imports (type-only ones too). */
const SPECIFIER = /(?:from\s+|import\s*\(\s*|^import\s+)"([^"]+)"/gm;
/** Imports that load nothing when the module loads: dynamic `import("x")` and `import type`. */
const LAZY = /(?:import\s*\(\s*"([^"]+)"|^import\s+type\s[^;]*?from\s+"([^"]+)")/gm;

/**
 * Every package a module and the modules it reaches import, relative imports followed; `loaded`
 * keeps only those some module imports at load time (not only lazily or for types).
 */
function packagesReachable(entry: string, loaded = false): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    const lazy = new Map<string, number>();
    for (const [, a, b] of source.matchAll(LAZY)) lazy.set(a ?? b!, (lazy.get(a ?? b!) ?? 0) + 1);
    const all = new Map<string, number>();
    for (const [, specifier] of source.matchAll(SPECIFIER)) {
      all.set(specifier!, (all.get(specifier!) ?? 0) + 1);
      if (specifier!.startsWith("."))
        visit(resolve(dirname(file), specifier!.replace(/\.js$/, ".ts")));
    }
    for (const [specifier, n] of all) {
      if (specifier.startsWith(".")) continue;
      if (!loaded || n > (lazy.get(specifier) ?? 0)) packages.add(specifier);
    }
  };
  visit(resolve(SRC, entry));
  return packages;
}

const PEERS = /^(ai|ai\/.*|@langchain\/.*|@modelcontextprotocol\/.*)$/;
const MODEL_SDK = /^(ai|@ai-sdk\/.*)$/;

describe("entry points", () => {
  it("the core import loads no optional peer, no model SDK and not the MCP SDK", () => {
    expect([...packagesReachable("index.ts", true)].filter((p) => PEERS.test(p))).toEqual([]);
    // The model layer's SDKs are dependencies, but loaded only when a model is used.
    expect([...packagesReachable("index.ts", true)].filter((p) => MODEL_SDK.test(p))).toEqual([]);
    expect([...packagesReachable("index.ts")].filter((p) => MODEL_SDK.test(p)).sort()).toEqual([
      "@ai-sdk/anthropic",
      "@ai-sdk/openai",
      "@ai-sdk/openai-compatible",
      "ai",
    ]);
  });

  it("the openai and anthropic entries load no SDK at all", () => {
    for (const entry of ["adapters/openai.ts", "adapters/anthropic.ts"]) {
      expect([...packagesReachable(entry, true)].filter((p) => PEERS.test(p))).toEqual([]);
    }
  });

  it("each framework entry loads its own peer only", () => {
    expect([...packagesReachable("adapters/ai-sdk.ts", true)].filter((p) => PEERS.test(p))).toEqual(
      ["ai"],
    );
    expect(
      [...packagesReachable("adapters/langchain.ts", true)].filter((p) => PEERS.test(p)),
    ).toEqual(["@langchain/core/messages", "@langchain/core/tools"]);
  });
});
