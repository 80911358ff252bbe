/**
 * The site the service fetches from, in a process of its own as a real site would be: the
 * fixture server on 127.0.0.1. Prints `{"port": n, "page": url}` on stdout and stops when stdin
 * closes.
 */
import { startFixtureServer } from "../../test/helpers/fixture-server.js";

const fixture = await startFixtureServer();
process.stdout.write(`${JSON.stringify({ port: fixture.port, page: fixture.url("/article") })}\n`);
process.stdin.resume();
process.stdin.on("end", async () => {
  await fixture.close();
  process.exit(0);
});
