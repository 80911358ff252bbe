/**
 * The package's own description agrees with the code: the version the User-Agent sends, the
 * project page it names, the license file beside the license field.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../../src/options.js";
import { PROJECT_URL, VERSION } from "../../src/version.js";

const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
  license: string;
  homepage: string;
  repository: { url: string };
  bugs: { url: string };
  keywords: string[];
  files: string[];
};

describe("package.json", () => {
  it("has the version the code reports", () => {
    expect(pkg.version).toBe(VERSION);
    expect(DEFAULTS.userAgent).toBe(`webfetch/${VERSION} (+${PROJECT_URL})`);
  });

  it("names the project page the User-Agent names", () => {
    expect(pkg.homepage.startsWith(PROJECT_URL)).toBe(true);
    expect(pkg.repository.url).toBe(`git+${PROJECT_URL}.git`);
    expect(pkg.bugs.url).toBe(`${PROJECT_URL}/issues`);
    expect(pkg.keywords).toContain("mcp");
  });

  it("ships a LICENSE of the license it declares, and the sources its maps name", () => {
    expect(pkg.license).toBe("MIT");
    expect(readFileSync(new URL("../../LICENSE", import.meta.url), "utf8")).toMatch(/^MIT License/);
    expect(pkg.files).toEqual(["dist", "src", "webfetch.config.example.yaml"]);
  });
});
