/**
 * Speed toward the floor, every figure beside its peer or floor measured in the same run:
 * - fetch overhead: web.fetch() against a bare undici request of the same URL (needs dist/);
 * - cold start: the CLI and the MCP server against `node -e 0` (needs dist/: npm run build);
 * - big pages: conversion time by size and shape, and a huge feed within the thread heap.
 * Extraction throughput against Readability is in `npm run bench:quality`, the service's
 * requests per second in `npm run bench:service`.
 *
 * Run: npm run bench:speed [-- --only fetch,cold,big]
 */
import { markdownTable } from "./speed/table.js";

const args = process.argv.slice(2);
const i = args.indexOf("--only");
const only = i < 0 ? undefined : new Set(args[i + 1]?.split(","));
const wanted = (name: string) => only === undefined || only.has(name);

if (wanted("fetch")) {
  const { fetchOverheadBench } = await import("./speed/fetch-overhead.js");
  console.log("## Fetch overhead, 100 KB over loopback, cache off\n");
  console.log(`${markdownTable(await fetchOverheadBench())}\n`);
}

if (wanted("cold")) {
  const { coldStartBench } = await import("./speed/cold-start.js");
  console.log("## Cold start of the compiled CLI, against node -e 0\n");
  console.log(`${markdownTable(await coldStartBench())}\n`);
}

if (wanted("big")) {
  const { bigPagesBench } = await import("./speed/big-pages.js");
  console.log("## Big pages: conversion time by shape and size\n");
  console.log(`${markdownTable(await bigPagesBench())}\n`);
}
