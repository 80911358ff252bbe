#!/usr/bin/env bash
# The tarball `npm pack` makes must work on its own: installed into an empty project it runs its
# bin (`webfetch --version`, `webfetch mcp` answering initialize), every subpath export imports
# from ESM and type-checks from TypeScript under moduleResolution node16, nodenext and bundler
# with skipLibCheck off, and no source map names a file the tarball lacks. Dependencies come
# from npm's cache when they are there (CI's `npm ci` has just filled it).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
version_of() { node -p "require('$repo/node_modules/$1/package.json').version"; }

echo "== npm pack"
npm pack --pack-destination "$tmp" --ignore-scripts --silent >/dev/null
tarball="$(ls "$tmp"/*.tgz)"
echo "tarball: $(basename "$tarball"), $(stat -c %s "$tarball") bytes"

echo "== source maps name only files the tarball has"
mkdir "$tmp/unpacked"
tar xzf "$tarball" -C "$tmp/unpacked"
node "$repo/scripts/check-source-maps.mjs" "$tmp/unpacked/package"

echo "== install into an empty project"
project="$tmp/project"
mkdir "$project"
cd "$project"
printf '{ "name": "consumer", "private": true, "type": "module" }\n' >package.json
npm install --prefer-offline --no-audit --no-fund --loglevel=error "$tarball" \
  "typescript@$(version_of typescript)" "@types/node@$(version_of @types/node)" \
  "@langchain/core@$(version_of @langchain/core)"

echo "== the bin"
test "$(npx --no-install webfetch --version)" = "$(node -p "require('$repo/package.json').version")"
node "$repo/scripts/check-mcp-initialize.mjs" "$project/node_modules/.bin/webfetch"
npx --no-install webfetch config init "$tmp/init.yaml"
npx --no-install webfetch --config "$tmp/init.yaml" tools >/dev/null

echo "== every subpath export, from ESM"
subpaths="$(node -p '
  const { exports } = require("./node_modules/webfetch/package.json");
  Object.keys(exports).filter((k) => k !== "./package.json")
    .map((k) => (k === "." ? "webfetch" : `webfetch${k.slice(1)}`)).join(" ")')"
for subpath in $subpaths; do
  node --input-type=module -e "const m = await import('$subpath');
    if (Object.keys(m).length === 0) throw new Error('$subpath exports nothing');"
  echo "import $subpath: ok"
done

echo "== every subpath export, from TypeScript (skipLibCheck off)"
i=0
: >check.ts
for subpath in $subpaths; do
  echo "import * as m$i from \"$subpath\";" >>check.ts
  echo "console.log(Object.keys(m$i).length);" >>check.ts
  i=$((i + 1))
done
for resolution in node16 nodenext bundler; do
  module="$resolution"
  [ "$resolution" = bundler ] && module=esnext
  npx --no-install tsc --noEmit --strict --skipLibCheck false --target es2022 --types node \
    --module "$module" --moduleResolution "$resolution" check.ts
  echo "tsc --moduleResolution $resolution: ok"
done
