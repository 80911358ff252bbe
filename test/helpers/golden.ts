/**
 * Golden files: the expected output lives in a file a reviewer reads. With UPDATE_FIXTURES=1
 * (`npm run fixtures:update`) the files are rewritten from the current output instead of
 * compared; then review the diff.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

/** Set to rewrite expected files instead of comparing. */
export const UPDATE_FIXTURES = process.env.UPDATE_FIXTURES === "1";

/** A file of test/fixtures/adapters/. */
export const adapterFixture = (name: string) =>
  fileURLToPath(new URL(`../fixtures/adapters/${name}`, import.meta.url));

/** Compares `value`, as 2-space JSON, with the file at `path` (or writes it when updating). */
export function expectGoldenJson(path: string, value: unknown): void {
  const actual = `${JSON.stringify(value, null, 2)}\n`;
  if (UPDATE_FIXTURES) writeFileSync(path, actual);
  else expect(actual, path).toBe(readFileSync(path, "utf8"));
}

/** A recorded API payload, its `{{port}}` filled with the fixture server's port. */
export function readRecorded<T>(path: string, port: number): T {
  return JSON.parse(readFileSync(path, "utf8").replaceAll("{{port}}", String(port))) as T;
}
