// Every source map under a package directory names only sources that the directory holds: a map
// pointing at a file the tarball lacks sends a user's debugger and stack traces nowhere.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(process.argv[2] ?? ".");
let maps = 0;
const missing = [];
for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith(".map")) continue;
  const file = join(entry.parentPath, entry.name);
  const map = JSON.parse(readFileSync(file, "utf8"));
  const base = join(dirname(file), map.sourceRoot ?? "");
  for (const source of map.sources ?? []) {
    const target = resolve(base, source);
    if (!target.startsWith(`${root}/`) || !existsSync(target)) {
      missing.push(`${relative(root, file)} → ${source}`);
    }
  }
  maps++;
}
if (missing.length > 0) {
  console.error(`${missing.length} source map entries name files the package lacks:`);
  for (const line of missing.slice(0, 20)) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`${maps} source maps, every source present`);
