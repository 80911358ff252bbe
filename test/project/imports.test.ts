/**
 * The modules of src/ import each other without a cycle, types included: a cycle means no
 * module of it can be read, tested or moved without the others, and at run time one of them
 * sees the others half-initialised. The leaves (limits.ts, values.ts) import nothing of ours.
 * Imports flow one way, down the layers: surfaces (cli, server, adapters) over tools, tools over
 * the library's pipeline, and inside it the content stages (convert, extract, markdown, shape)
 * work on bytes and text without transport, cache or anything above them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));

/** Every .ts file under `dir`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Relative imports and re-exports of `file`, as absolute paths of .ts files. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"/g)) {
    out.push(resolve(dirname(file), match[1]!.replace(/\.js$/, ".ts")));
  }
  return out;
}

/** The strongly connected groups of more than one module (Tarjan's algorithm). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** The folders of the content stages: pure functions of a page's bytes and text. */
const CONTENT = ["convert", "extract", "markdown", "shape"];
/** What the content stages never import: the transport, the cache and everything above. */
const NOT_FOR_CONTENT = [
  "fetch",
  "net",
  "cache",
  "render",
  "webfetch",
  "tools",
  "cli",
  "server",
  "adapters",
];
/** The lowest layer, the network policy (URLs, addresses, robots.txt, deadlines), and what is above it. */
const ABOVE_NET = [
  "fetch",
  "endpoint",
  "cache",
  "render",
  "search",
  "llm",
  "pages",
  "context",
  "webfetch",
  ...CONTENT,
];
/**
 * The surfaces: the command line, the HTTP service, the framework adapters, and the
 * configuration file that sets up all three.
 */
const SURFACES = ["cli", "server", "adapters", "config"];
/** The package's entry, which lists the public API of every layer. */
const ENTRY = "index.ts";

/** The first folder of `file` under src/ ("" for a file at the top). */
function folderOf(file: string): string {
  const parts = relative(SRC, file).split("/");
  return parts.length > 1 ? parts[0]! : "";
}

/** Each import from a folder in `from` to a folder in `to`, as "importer -> imported". */
function crossings(
  graph: Map<string, string[]>,
  from: (folder: string) => boolean,
  to: readonly string[],
): string[] {
  const found: string[] = [];
  for (const [file, imports] of graph) {
    if (relative(SRC, file) === ENTRY || !from(folderOf(file))) continue;
    for (const imported of imports) {
      if (to.includes(folderOf(imported))) {
        found.push(`${relative(SRC, file)} -> ${relative(SRC, imported)}`);
      }
    }
  }
  return found;
}

describe("imports of src/", () => {
  const graph = new Map(sourceFiles(SRC).map((file) => [file, importsOf(file)]));

  it("reads the import graph (a sanity check of the parser)", () => {
    expect(graph.get(join(SRC, "options.ts"))).toContain(join(SRC, "limits.ts"));
    expect(graph.size).toBeGreaterThan(50);
  });

  it("have no cycle, types included", () => {
    const named = cycles(graph).map((group) => group.map((f) => relative(SRC, f)).sort());
    expect(named).toEqual([]);
  });

  it("leave the leaves alone: limits.ts and values.ts import nothing of ours", () => {
    expect(graph.get(join(SRC, "limits.ts"))).toEqual([]);
    expect(graph.get(join(SRC, "values.ts"))).toEqual([]);
  });

  it("keep the content stages free of transport, cache and surfaces", () => {
    expect(crossings(graph, (f) => CONTENT.includes(f), NOT_FOR_CONTENT)).toEqual([]);
  });

  it("keep the network policy at the bottom: net/ imports no layer above it", () => {
    expect(crossings(graph, (f) => f === "net", [...ABOVE_NET, "tools", ...SURFACES])).toEqual([]);
  });

  it("keep the pipeline below tools and surfaces, and tools below surfaces", () => {
    const pipeline = (f: string) => f !== "tools" && !SURFACES.includes(f);
    expect(crossings(graph, pipeline, ["tools", ...SURFACES])).toEqual([]);
    expect(crossings(graph, (f) => f === "tools", SURFACES)).toEqual([]);
  });

  it("finds a crossing when there is one", () => {
    const shaped = join(SRC, "shape", "x.ts");
    const graphWithCrossing = new Map([[shaped, [join(SRC, "fetch", "http.ts")]]]);
    expect(crossings(graphWithCrossing, (f) => CONTENT.includes(f), NOT_FOR_CONTENT)).toEqual([
      "shape/x.ts -> fetch/http.ts",
    ]);
  });

  it("finds a cycle when there is one", () => {
    const a = join(SRC, "a.ts");
    const b = join(SRC, "b.ts");
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toHaveLength(1);
  });
});
