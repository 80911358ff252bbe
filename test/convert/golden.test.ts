/**
 * Golden tests for convertHtml: each folder of test/fixtures/html/ holds an input page and the
 * expected Markdown, plain text and metadata, which are the spec a reviewer reads; a case whose
 * options say `"html": true` also holds the expected clean HTML. Run with
 * UPDATE_FIXTURES=1 (`npm run fixtures:update`) to rewrite the expected files from the current
 * output, then review the diff.
 */

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type ConvertHtmlOptions, convertHtml } from "../../src/convert/html.js";

/** Where the cases live. */
const FIXTURES = fileURLToPath(new URL("../fixtures/html/", import.meta.url));
/** Set to rewrite expected files instead of comparing. */
const UPDATE = process.env.UPDATE_FIXTURES === "1";

/**
 * Optional per-case `options.json`: the page URL, extract mode, CSS selectors, and whether the
 * case checks the clean HTML form too.
 */
interface CaseOptions {
  html?: boolean;
  url?: string;
  extract?: "main" | "full";
  includeSelectors?: string[];
  excludeSelectors?: string[];
}

const cases = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe("convertHtml golden fixtures", () => {
  it("has cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(12);
  });

  for (const name of cases) {
    it(name, () => {
      const dir = join(FIXTURES, name);
      const html = readFileSync(join(dir, "input.html"), "utf8");
      const optionsFile = join(dir, "options.json");
      const caseOptions: CaseOptions = existsSync(optionsFile)
        ? (JSON.parse(readFileSync(optionsFile, "utf8")) as CaseOptions)
        : {};
      const options: ConvertHtmlOptions = {
        url: caseOptions.url ?? `https://example.com/${name}/`,
        ...(caseOptions.extract ? { extract: caseOptions.extract } : {}),
        ...(caseOptions.includeSelectors ? { includeSelectors: caseOptions.includeSelectors } : {}),
        ...(caseOptions.excludeSelectors ? { excludeSelectors: caseOptions.excludeSelectors } : {}),
      };

      const { content: markdown, ...metadata } = convertHtml(html, options);
      const { content: text } = convertHtml(html, { ...options, format: "text" });
      const actual: Record<string, string> = {
        "expected.md": `${markdown}\n`,
        "expected.txt": `${text}\n`,
        "expected.json": `${JSON.stringify(metadata, null, 2)}\n`,
      };
      if (caseOptions.html) {
        const { content: clean } = convertHtml(html, { ...options, format: "html" });
        actual["expected.html"] = `${clean}\n`;
      }

      for (const [file, content] of Object.entries(actual)) {
        const path = join(dir, file);
        if (UPDATE) writeFileSync(path, content);
        else expect(content, `${name}/${file}`).toBe(readFileSync(path, "utf8"));
      }
    });
  }
});
