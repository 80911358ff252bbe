#!/usr/bin/env node
/** The `webfetch` executable: process glue around run(). */
import { run } from "./run.js";

const status = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
process.exitCode = status;
