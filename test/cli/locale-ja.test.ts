/**
 * `--locale ja` (or `locale: ja` in the configuration) speaks Japanese in the CLI's own lines:
 * error lines, usage errors and notes. Codes stay as they are; English detail the Japanese text
 * leaves out (the status, the address) follows in brackets.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliFixture, runCli } from "../helpers/cli.js";

const fixture = cliFixture();
const { allow, page } = fixture;

/** A directory holding a configuration file with `yaml` in it. */
function configDir(yaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), "webfetch-cli-"));
  writeFileSync(join(dir, "webfetch.config.yaml"), yaml);
  return dir;
}

const HTTP_404_JA = "webfetch: HTTP_ERROR: ページを取得できませんでした（Page not found (404)）\n";

describe("webfetch CLI in Japanese", () => {
  it("--locale ja prints a fetch error line in Japanese", async () => {
    const r = await runCli(["fetch", page("/status?code=404"), "--locale", "ja", ...allow()]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(HTTP_404_JA);
    expect(r.stdout).toBe("");
  });

  it("--locale ja names each failed URL of several in Japanese", async () => {
    const r = await runCli([
      "fetch",
      page("/article"),
      page("/status?code=403"),
      "--locale=ja",
      ...allow(),
    ]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `webfetch: ${page("/status?code=403")}: HTTP_ERROR: ページを取得できませんでした（Access forbidden (403)）\n`,
    );
  });

  it("--locale ja prints usage errors and the help hint in Japanese", async () => {
    const bad = await runCli(["fetch", page("/article"), "--locale", "ja", "--max-length", "x"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(
      "エラー: オプション --max-length <n> の値 'x' が正しくありません: 1 以上の整数を指定してください\n" +
        "（使い方は webfetch --help で確認できます）\n",
    );
    const choice = await runCli(["fetch", page("/article"), "--redirects", "x", "--locale", "ja"]);
    expect(choice.stderr).toContain(
      "エラー: オプション --redirects <policy> の値 'x' は使えません。使える値: follow, same-host, same-site\n",
    );
    const missing = await runCli(["fetch", "--locale", "ja"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("エラー: 引数 url が必要です\n");
    const unknown = await runCli(["fetch", page("/article"), "--locale", "ja", "--jsn"]);
    expect(unknown.stderr).toContain(
      "エラー: 不明なオプションです: --jsn\n（--json のことですか？）\n",
    );
    const combined = await runCli([
      "fetch",
      page("/a"),
      "--prompt",
      "p",
      "--query",
      "q",
      "--locale",
      "ja",
    ]);
    expect(combined.status).toBe(2);
    expect(combined.stderr).toBe(
      "webfetch: INVALID_INPUT: 入力が正しくありません: --prompt and --query cannot be combined\n",
    );
  });

  it("--locale ja prints the no-model note in Japanese", async () => {
    const r = await runCli([
      "fetch",
      page("/article"),
      "--prompt",
      "related",
      "--locale",
      "ja",
      ...allow(),
    ]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(
      "注: モデル（llm）が設定されていないため、回答の代わりにプロンプトに最も関連するページの箇所を返しました。\n",
    );
  });

  it("locale: ja in the configuration file applies to error lines and usage errors", async () => {
    const cwd = configDir("locale: ja\n");
    const r = await runCli([page("/status?code=404"), ...allow()], { cwd });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(HTTP_404_JA);
    const usage = await runCli(["fetch", page("/article"), "--max-age", "-1"], { cwd });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("0 以上の秒数を指定してください");
    const file = join(configDir(""), "other.yaml");
    writeFileSync(file, "locale: ja\n");
    const named = await runCli([page("/status?code=404"), "--config", file, ...allow()]);
    expect(named.stderr).toBe(HTTP_404_JA);
  });

  it("--locale en wins over locale: ja in the configuration file", async () => {
    const cwd = configDir("locale: ja\n");
    const r = await runCli([page("/status?code=404"), "--locale", "en", ...allow()], { cwd });
    expect(r.stderr).toBe("webfetch: HTTP_ERROR: Page not found (404)\n");
  });
});
