/**
 * The `webfetch` executable is a bundle (dist/bin/, made by `npm run build`): what it loads
 * before a command runs is a few files of its own, not a package from node_modules, and the
 * files the bundled modules read beside themselves are there.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const BIN_DIR = join(process.cwd(), "dist/bin");

/** Static imports of a bundle file: its own chunks (by file name) and anything else. */
function staticImports(file: string): { chunks: string[]; other: string[] } {
  const text = readFileSync(join(BIN_DIR, file), "utf8");
  const chunks: string[] = [];
  const other: string[] = [];
  for (const match of text.matchAll(
    /(?:^|\n)\s*(?:import|export)\s+(?:[^;]*?\bfrom\s+)?"([^"]+)"/g,
  )) {
    const spec = match[1]!;
    if (spec.startsWith("./")) chunks.push(spec.slice(2));
    else if (!spec.startsWith("node:")) other.push(spec);
  }
  return { chunks, other };
}

/** Every file `entry` loads through static imports, and the packages among them. */
function startGraph(entry: string): { files: Set<string>; packages: string[] } {
  const files = new Set<string>();
  const packages: string[] = [];
  const walk = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const { chunks, other } = staticImports(file);
    packages.push(...other);
    for (const chunk of chunks) walk(chunk);
  };
  walk(entry);
  return { files, packages };
}

it("starts from a handful of its own files and no package", () => {
  expect(existsSync(join(BIN_DIR, "webfetch.js")), "run npm run build").toBe(true);
  const { files, packages } = startGraph("webfetch.js");
  expect(packages).toEqual([]);
  expect(files.size).toBeLessThanOrEqual(4);
  const thread = startGraph("worker.js");
  expect(thread.packages).toEqual([]);
});

it("has beside it the files its modules read, and runs", () => {
  for (const file of [
    "block-model.json",
    "block-model-other.json",
    "prompts/web-fetch-agent.md",
    "playground/index.html",
  ]) {
    expect(existsSync(join(BIN_DIR, file)), file).toBe(true);
  }
  const version = JSON.parse(readFileSync("package.json", "utf8")).version as string;
  const out = execFileSync(process.execPath, [join(BIN_DIR, "webfetch.js"), "--version"], {
    encoding: "utf8",
  });
  expect(out.trim()).toBe(version);
});
