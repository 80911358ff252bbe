// Starts `<bin> mcp` and sends MCP's initialize over stdio: the installed server must answer it
// with its name and version (a server that dies or says nothing fails here, not in a client).
import { spawn } from "node:child_process";

const bin = process.argv[2];
const child = spawn(bin, ["mcp"], { stdio: ["pipe", "pipe", "inherit"] });
const deadline = setTimeout(() => fail("no answer to initialize within 60 s"), 60_000);
let buffered = "";

child.on("exit", (code) => fail(`the server exited (${code}) before answering`));
child.stdout.setEncoding("utf8");
child.stdout.on("data", (chunk) => {
  buffered += chunk;
  for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    const message = JSON.parse(line);
    if (message.id !== 1) continue;
    if (!message.result?.serverInfo?.name) fail(`unexpected answer: ${line}`);
    console.log(
      `mcp initialize: ${message.result.serverInfo.name} ${message.result.serverInfo.version}`,
    );
    clearTimeout(deadline);
    child.removeAllListeners("exit");
    child.kill();
  }
});
child.stdin.write(
  `${JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "check-package", version: "0" },
    },
  })}\n`,
);

function fail(message) {
  console.error(message);
  child.kill();
  process.exit(1);
}
