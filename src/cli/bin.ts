#!/usr/bin/env node
/**
 * The `webfetch` executable: process glue around run(), which is loaded only when there is a
 * command to run (`--version` alone prints the version without it).
 */
import { VERSION } from "../version.js";

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  process.stdout.write(`${VERSION}\n`);
} else {
  await main();
}

async function main(): Promise<void> {
  const { run } = await import("./run.js");
  let settled = false;
  // Node exits when nothing keeps its event loop alive, even with run() still pending (status 13,
  // no output). No known path does that any more; if one ever does, say so instead of going quiet.
  process.on("exit", (code) => {
    if (settled) return;
    process.stderr.write(
      "webfetch: INTERNAL_ERROR: the command stopped before it finished (nothing was left to wait on)\n",
    );
    if (code === 0 || code === 13) process.exitCode = 1;
  });

  const status = await run(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
  });
  settled = true;
  process.exitCode = status;
}
