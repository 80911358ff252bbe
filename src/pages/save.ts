/**
 * Writes the full content of a page to `saveDir`, so an agent can read and search a large page
 * with its own tools. One file per page id, replaced atomically so a reader
 * never sees half a page.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { OutputFormat } from "../values.js";

/** Characters a host may keep in a file name; the rest become `_`. */
const UNSAFE_NAME = /[^a-z0-9.-]+/g;

/**
 * File name extension by format. The raw source is saved as text, so a page's own scripts never
 * run from a file opened by mistake; clean HTML has none.
 */
const EXTENSIONS: Readonly<Record<OutputFormat, string>> = {
  markdown: "md",
  text: "txt",
  html: "html",
  raw: "txt",
};

/** Writes `content` and returns the file's path: `<dir>/<host>-<id>.md` (`.txt`, `.html`). */
export async function savePage(
  dir: string,
  page: { id: string; finalUrl: string; format: OutputFormat; content: string },
): Promise<string> {
  const host = new URL(page.finalUrl).hostname.toLowerCase().replace(UNSAFE_NAME, "_");
  const path = join(resolve(dir), `${host}-${page.id}.${EXTENSIONS[page.format]}`);
  await mkdir(dir, { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, page.content, "utf8");
  await rename(temporary, path);
  return path;
}

/** The saved content, or undefined when the file is gone. */
export async function readSaved(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}
