/** Runs the CLI in-process with captured output: the pure `run(argv, io)`, no child process. */
import { tmpdir } from "node:os";
import { Readable } from "node:stream";
import { afterAll, beforeAll } from "vitest";
import { type CliIO, run } from "../../src/cli/run.js";
import { type FixtureServer, startFixtureServer } from "./fixture-server.js";

export interface CliRunOptions {
  /** Standard input, as text. */
  stdin?: string;
  /** Whether stderr claims to be a terminal (progress lines). @default false */
  tty?: boolean;
  /** @default the system temporary directory, where no config file lies */
  cwd?: string;
  /** @default only PATH */
  env?: NodeJS.ProcessEnv;
}

export async function runCli(args: string[], options: CliRunOptions = {}) {
  let stdout = "";
  let stderr = "";
  const io: CliIO = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s), isTTY: options.tty ?? false },
    env: options.env ?? { PATH: process.env.PATH },
    cwd: options.cwd ?? tmpdir(),
    ...(options.stdin === undefined ? {} : { stdin: Readable.from([Buffer.from(options.stdin)]) }),
  };
  const status = await run(args, io);
  return { status, stdout, stderr };
}

/** The fixture server for a CLI test file, reached by IP with its port opened in the guard. */
export interface CliFixture {
  server: FixtureServer;
  /** `--allow-address 127.0.0.1:{port}` */
  allow(): string[];
  /** `http://127.0.0.1:{port}{path}` */
  page(path: string): string;
}

/** Starts the fixture server before the enclosing test file and closes it after. */
export function cliFixture(): CliFixture {
  const fixture = {
    allow: () => ["--allow-address", `127.0.0.1:${fixture.server.port}`],
    page: (path: string) => `http://127.0.0.1:${fixture.server.port}${path}`,
  } as CliFixture;
  beforeAll(async () => {
    fixture.server = await startFixtureServer();
  });
  afterAll(async () => {
    await fixture.server.close();
  });
  return fixture;
}
