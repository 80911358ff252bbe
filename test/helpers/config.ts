/** Configuration files for tests, each in a fresh temporary directory. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Writes `lines` as webfetch.config.yaml in a new directory; returns both paths. */
export function configFile(lines: string[]): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), "webfetch-config-"));
  const file = join(dir, "webfetch.config.yaml");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return { dir, file };
}
