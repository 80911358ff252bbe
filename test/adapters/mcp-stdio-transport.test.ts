/**
 * The stdio transport on its own, over in-memory streams: how it splits lines, which id it reads
 * from a line too long to keep, and which bad lines it answers. `webfetch mcp` as a child is
 * tested in mcp-stdio.test.ts.
 */
import { PassThrough } from "node:stream";
import { ErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createStdioTransport } from "../../src/adapters/mcp-stdio.js";

/** A started transport with a small line limit, what it hands on and what it writes. */
async function transport(maxLineBytes = 200) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const t = createStdioTransport({ stdin, stdout, maxLineBytes });
  const messages: JSONRPCMessage[] = [];
  const errors: string[] = [];
  t.onmessage = (m) => messages.push(m);
  t.onerror = (e) => errors.push(e.message);
  await t.start();
  let written = "";
  stdout.on("data", (chunk: Buffer) => (written += chunk.toString()));
  return {
    messages,
    errors,
    /** Replaces the message handler. */
    onmessage(handler: (m: JSONRPCMessage) => void) {
      t.onmessage = handler;
    },
    /** Writes raw bytes, in the pieces given, and lets the stream deliver them. */
    async write(...pieces: string[]) {
      for (const piece of pieces) {
        stdin.write(piece);
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    answers: () =>
      written
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { id: unknown; error: { code: number } }),
  };
}

const list = (id: number | string) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" });

describe("stdio transport", () => {
  it("hands on messages split across pieces, one per line, CRLF and blank lines included", async () => {
    const t = await transport();
    const a = list(1);
    await t.write(a.slice(0, 5), a.slice(5, 20), `${a.slice(20)}\r\n\n  \n${list(2)}\n${list(3)}`);
    expect(t.messages.map((m) => (m as { id: number }).id)).toEqual([1, 2]);
    await t.write("\n");
    expect(t.messages.map((m) => (m as { id: number }).id)).toEqual([1, 2, 3]);
    expect(t.answers()).toEqual([]);
    expect(t.errors).toEqual([]);
  });

  it("reads the id of an over-long line from its first or its last member, else answers id null", async () => {
    const t = await transport();
    const params = { name: "web_fetch", arguments: { url: "x".repeat(5_000) } };
    const lines = [
      JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params }),
      JSON.stringify({ method: "tools/call", params, jsonrpc: "2.0", id: "last" }),
      // An id inside the params is not the request's id.
      JSON.stringify({ jsonrpc: "2.0", method: "tools/call", params: { ...params, id: 9 } }),
      JSON.stringify({ jsonrpc: "2.0", method: "tools/call", params: [params, { id: 9 }] }),
    ];
    // Fed in small pieces, as a pipe delivers them.
    const all = `${lines.join("\n")}\n${list(8)}\n`;
    const pieces = all.match(/[\s\S]{1,700}/g)!;
    await t.write(...pieces);
    const answers = t.answers();
    expect(answers.map((a) => [a.id, a.error.code])).toEqual([
      [7, ErrorCode.InvalidRequest],
      ["last", ErrorCode.InvalidRequest],
      [null, ErrorCode.InvalidRequest],
      [null, ErrorCode.InvalidRequest],
    ]);
    expect(t.messages).toEqual([{ jsonrpc: "2.0", id: 8, method: "tools/list" }]);
    expect(t.errors[0]).toMatch(/over the limit of 200 bytes .*id 7/);
  });

  it("reports a handler that throws and hands on the next line", async () => {
    const t = await transport();
    const seen: unknown[] = [];
    t.onmessage((m) => {
      seen.push((m as { id: number }).id);
      if (seen.length === 1) throw new Error("handler broke");
    });
    await t.write(`${list(1)}\n${list(2)}\n`);
    expect(seen).toEqual([1, 2]);
    expect(t.errors).toEqual(["handler broke"]);
  });

  it("answers bad JSON and bad requests, but not a malformed response", async () => {
    const t = await transport();
    await t.write(
      '{"jsonrpc":"2.0","id":1,"method":\n',
      '{"jsonrpc":"1.0","id":"a","method":"tools/list"}\n',
      '{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}\n',
      "[]\n",
      '{"jsonrpc":"2.0","id":3,"result":5}\n',
    );
    expect(t.answers().map((a) => [a.id, a.error.code])).toEqual([
      [null, ErrorCode.ParseError],
      ["a", ErrorCode.InvalidRequest],
      [null, ErrorCode.InvalidRequest],
      [null, ErrorCode.InvalidRequest],
    ]);
    expect(t.errors).toHaveLength(5);
    expect(t.messages).toEqual([]);
  });
});
