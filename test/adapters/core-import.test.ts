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

/** Every package a module and the modules it reaches import, relative imports followed. */
function packagesReachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    for (const [, specifier] of source.matchAll(SPECIFIER)) {
      if (specifier!.startsWith("."))
        visit(resolve(dirname(file), specifier!.replace(/\.js$/, ".ts")));
      else packages.add(specifier!);
    }
  };
  visit(resolve(SRC, entry));
  return packages;
}

const PEERS = /^(ai|ai\/.*|@langchain\/.*|@modelcontextprotocol\/.*)$/;

describe("entry points", () => {
  it("the core import reaches no optional peer and not the MCP SDK", () => {
    expect([...packagesReachable("index.ts")].filter((p) => PEERS.test(p))).toEqual([]);
  });

  it("the openai and anthropic entries need no SDK at all", () => {
    for (const entry of ["adapters/openai.ts", "adapters/anthropic.ts"]) {
      expect([...packagesReachable(entry)].filter((p) => PEERS.test(p))).toEqual([]);
    }
  });

  it("each framework entry imports its own peer only", () => {
    expect([...packagesReachable("adapters/ai-sdk.ts")].filter((p) => PEERS.test(p))).toEqual([
      "ai",
    ]);
    expect([...packagesReachable("adapters/langchain.ts")].filter((p) => PEERS.test(p))).toEqual([
      "@langchain/core/tools",
    ]);
  });
});
