/**
 * Remote mode's token from the CLI: a service run with a token refuses a client without one,
 * and takes it from --endpoint-token, the configuration or WEBFETCH_API_TOKEN, in that order.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { serviceSuite } from "./helpers.js";

const s = serviceSuite({ server: { token: "s3cret" } });

const fetchThrough = (...extra: string[]) => [
  "fetch",
  "--json",
  "--endpoint",
  s.url,
  "--endpoint-kind",
  "webfetch",
  ...extra,
  s.page("/article"),
];

describe("remote mode's token from the CLI", () => {
  it("is refused without a token, taken from --endpoint-token or WEBFETCH_API_TOKEN", async () => {
    const none = await runCli(fetchThrough());
    expect(none.status).not.toBe(0);
    expect(JSON.parse(none.stdout)).toMatchObject({ error: { code: "AUTH_ERROR" } });
    const flag = await runCli(fetchThrough("--endpoint-token", "s3cret"));
    expect(flag.status).toBe(0);
    expect(JSON.parse(flag.stdout)).toMatchObject({ status: 200 });
    const env = { PATH: process.env.PATH, WEBFETCH_API_TOKEN: "s3cret" };
    expect((await runCli(fetchThrough(), { env })).status).toBe(0);
    const wrong = await runCli(fetchThrough("--endpoint-token", "wrong"), { env });
    expect(wrong.status).not.toBe(0);
  });

  it("prefers the configuration's token over the variable, and refuses one HTTP cannot carry", async () => {
    const dir = mkdtempSync(join(tmpdir(), "webfetch-token-"));
    const config = join(dir, "webfetch.config.yaml");
    writeFileSync(
      config,
      `tools:\n  web_fetch:\n    api_endpoint: ${s.url}\n    api_endpoint_kind: webfetch\n    api_token: s3cret\n`,
    );
    const env = { PATH: process.env.PATH, WEBFETCH_API_TOKEN: "wrong" };
    const fromFile = await runCli(["fetch", "--config", config, s.page("/article")], { env });
    expect(fromFile.status).toBe(0);
    const bad = await runCli(fetchThrough("--endpoint-token", "tök\nen"));
    expect(bad.status).toBe(2);
    expect(bad.stdout).toContain("--endpoint-token may hold only printable ASCII");
  });
});
