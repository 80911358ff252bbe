import { describe, expect, it } from "vitest";
import { crawlDelay, isAllowed, parseRobots } from "../../src/net/robots.js";

const allowed = (robots: string, path: string, token = "webfetch"): boolean =>
  isAllowed(parseRobots(robots), path, token).allowed;

describe("parseRobots / isAllowed (RFC 9309)", () => {
  it("RFC 9309 §5.1 example: groups per product token, merged groups, '*' fallback", () => {
    const robots = [
      "User-Agent: *",
      "Disallow: *.gif$",
      "Disallow: /example/",
      "Allow: /publications/",
      "",
      "User-Agent: foobot",
      "Disallow:/",
      "Allow:/example/page.html",
      "Allow:/example/allowed.gif",
      "",
      "User-Agent: barbot",
      "User-Agent: bazbot",
      "Disallow: /example/page.html",
      "",
      "User-Agent: quxbot",
      "",
      "# EOF",
    ].join("\n");
    const rules = parseRobots(robots);
    // foobot
    expect(isAllowed(rules, "/example/page.html", "foobot").allowed).toBe(true);
    expect(isAllowed(rules, "/example/allowed.gif", "foobot").allowed).toBe(true);
    expect(isAllowed(rules, "/other", "foobot")).toEqual({ allowed: false, rule: "/" });
    // barbot and bazbot share a group; its rules replace the '*' group entirely.
    for (const bot of ["barbot", "bazbot"]) {
      expect(isAllowed(rules, "/example/page.html", bot).allowed).toBe(false);
      expect(isAllowed(rules, "/foo.gif", bot).allowed).toBe(true);
    }
    // quxbot has an empty group: everything allowed.
    expect(isAllowed(rules, "/example/page.html", "quxbot").allowed).toBe(true);
    // Anyone else gets '*'.
    expect(isAllowed(rules, "/foo.gif", "webfetch")).toEqual({ allowed: false, rule: "*.gif$" });
    expect(isAllowed(rules, "/foo.gifs", "webfetch").allowed).toBe(true);
    expect(isAllowed(rules, "/example/x", "webfetch")).toEqual({
      allowed: false,
      rule: "/example/",
    });
    expect(isAllowed(rules, "/publications/x", "webfetch").allowed).toBe(true);
  });

  it("the longest match wins, in either direction", () => {
    const robots =
      "User-agent: *\nAllow: /folder/page\nDisallow: /folder\nDisallow: /folder/page/secret";
    expect(allowed(robots, "/folder/other")).toBe(false);
    expect(allowed(robots, "/folder/page")).toBe(true);
    expect(allowed(robots, "/folder/page/secret/x")).toBe(false);
  });

  it("allow wins a tie", () => {
    expect(allowed("User-agent: *\nDisallow: /page\nAllow: /page", "/page")).toBe(true);
    expect(allowed("User-agent: *\nAllow: /page\nDisallow: /page", "/page")).toBe(true);
    // Wildcards count towards the length: "/*" (2) vs "/p" (2).
    expect(allowed("User-agent: *\nDisallow: /*\nAllow: /p", "/page")).toBe(true);
  });

  it("'$' anchors the end; '*' matches any sequence", () => {
    const robots =
      "User-agent: *\nDisallow: /*.php$\nDisallow: /fish*.html\nAllow: /$\nDisallow: /";
    expect(allowed(robots, "/")).toBe(true);
    expect(allowed(robots, "/index.php")).toBe(false);
    expect(allowed(robots, "/fishy/a.html?x=1")).toBe(false);
    const php = "User-agent: *\nDisallow: /*.php$";
    expect(allowed(php, "/index.php")).toBe(false);
    expect(allowed(php, "/index.php?x=1")).toBe(true);
    expect(allowed(php, "/index.php5")).toBe(true);
    expect(allowed(php, "/a.php/b.php")).toBe(false);
    const stars = "User-agent: *\nDisallow: /a*b*c";
    expect(allowed(stars, "/a-b-c")).toBe(false);
    expect(allowed(stars, "/abc/more")).toBe(false);
    expect(allowed(stars, "/a-c-b")).toBe(true);
    const middleDollar = "User-agent: *\nDisallow: /price$list";
    expect(allowed(middleDollar, "/price$list")).toBe(false);
    expect(allowed(middleDollar, "/price")).toBe(true);
  });

  it("matches the query string too", () => {
    const robots = "User-agent: *\nDisallow: /*?sessionid=\nDisallow: /search?";
    expect(allowed(robots, "/page?sessionid=1")).toBe(false);
    expect(allowed(robots, "/search?q=a")).toBe(false);
    expect(allowed(robots, "/search")).toBe(true);
  });

  it("compares percent-encoded forms (RFC 9309 §2.2.2)", () => {
    expect(allowed("User-agent: *\nDisallow: /foo/bar/ツ", "/foo/bar/%E3%83%84")).toBe(false);
    expect(allowed("User-agent: *\nDisallow: /foo/bar/%E3%83%84", "/foo/bar/%e3%83%84")).toBe(
      false,
    );
    expect(allowed("User-agent: *\nDisallow: /foo/bar/%62%61%7A", "/foo/bar/baz")).toBe(false);
    expect(allowed("User-agent: *\nDisallow: /~joe", "/%7Ejoe/index.html")).toBe(false);
    expect(allowed("User-agent: *\nDisallow: /%7ejoe", "/~joe/")).toBe(false);
    // An encoded reserved character is not the character itself.
    expect(allowed("User-agent: *\nDisallow: /a%2Fb", "/a/b")).toBe(true);
    expect(allowed("User-agent: *\nDisallow: /a b", "/a%20b")).toBe(false);
  });

  it("product tokens: case-insensitive, first token of a user-agent line, our UA string", () => {
    const robots =
      "User-agent: WebFetch/2.0 (compatible)\nDisallow: /private\n\nUser-agent: *\nDisallow: /";
    expect(allowed(robots, "/public", "webfetch")).toBe(true);
    expect(allowed(robots, "/private", "webfetch")).toBe(false);
    expect(allowed(robots, "/public", "webfetch/1.0 (+https://example.com)")).toBe(true);
    expect(allowed(robots, "/public", "WEBFETCH")).toBe(true);
    // A longer token is another crawler.
    expect(allowed("User-agent: webfetcher\nDisallow: /", "/x", "webfetch")).toBe(true);
    expect(allowed("User-agent: webfetch2\nDisallow: /", "/x", "webfetch")).toBe(true);
  });

  it("merges several groups for the same agent", () => {
    const robots =
      "User-agent: webfetch\nDisallow: /a\n\nUser-agent: other\nDisallow: /b\n\nUser-agent: WEBFETCH\nDisallow: /c";
    const rules = parseRobots(robots);
    expect(isAllowed(rules, "/a", "webfetch").allowed).toBe(false);
    expect(isAllowed(rules, "/b", "webfetch").allowed).toBe(true);
    expect(isAllowed(rules, "/c", "webfetch").allowed).toBe(false);
  });

  it("no matching group and no '*' group: everything allowed", () => {
    expect(allowed("User-agent: googlebot\nDisallow: /", "/", "webfetch")).toBe(true);
  });

  it("empty file, empty disallow, rules outside any group", () => {
    expect(allowed("", "/anything")).toBe(true);
    expect(allowed("User-agent: *\nDisallow:", "/anything")).toBe(true);
    expect(allowed("Disallow: /\nUser-agent: *\nAllow: /x", "/y")).toBe(true);
  });

  it("/robots.txt is always allowed", () => {
    expect(allowed("User-agent: *\nDisallow: /", "/robots.txt")).toBe(true);
    expect(allowed("User-agent: *\nDisallow: /", "/robots.txt?x=1")).toBe(true);
    expect(allowed("User-agent: *\nDisallow: /", "/robots.txt.bak")).toBe(false);
  });

  it("syntax leniency: BOM, comments, CR/CRLF, spacing, case, typos, missing colon", () => {
    const robots =
      "\uFEFFuser-AGENT : webfetch # us\r\nDISALLOW:/a # comment\rdisallow :  /b\n  Disallow\t:\t/c  \nDissallow: /d\nDisallow /e\n# Disallow: /f\nfoo: bar\n";
    for (const path of ["/a", "/b", "/c", "/d", "/e"]) expect(allowed(robots, path)).toBe(false);
    expect(allowed(robots, "/f")).toBe(true);
  });

  it("a user-agent line after rules starts a new group; sitemap and crawl-delay do not", () => {
    const robots = [
      "User-agent: a",
      "Crawl-delay: 5",
      "User-agent: webfetch",
      "Sitemap: https://example.com/sitemap.xml",
      "Disallow: /shared",
      "User-agent: b",
      "Disallow: /b-only",
    ].join("\n");
    const rules = parseRobots(robots);
    expect(isAllowed(rules, "/shared", "webfetch").allowed).toBe(false);
    expect(isAllowed(rules, "/shared", "a").allowed).toBe(false);
    expect(isAllowed(rules, "/b-only", "webfetch").allowed).toBe(true);
    expect(crawlDelay(rules, "webfetch")).toBe(5);
    expect(crawlDelay(rules, "b")).toBeUndefined();
    expect(rules.sitemaps).toEqual(["https://example.com/sitemap.xml"]);
  });

  it("patterns without a leading slash are rooted", () => {
    expect(allowed("User-agent: *\nDisallow: private/", "/private/x")).toBe(false);
  });

  it("ignores input beyond 500 KiB and absurdly long lines", () => {
    const filler = `# ${"x".repeat(1000)}\n`.repeat(520);
    expect(allowed(`User-agent: *\n${filler}Disallow: /late`, "/late")).toBe(true);
    expect(allowed(`User-agent: *\nDisallow: /${"a".repeat(20_000)}\nDisallow: /b`, "/b")).toBe(
      false,
    );
    expect(
      allowed(`User-agent: *\nDisallow: /${"a".repeat(20_000)}`, `/${"a".repeat(20_000)}`),
    ).toBe(true);
  });

  it("stays linear on hostile patterns (backtracking would not end within the test's timeout)", () => {
    const robots = `User-agent: *\nDisallow: /${"*a".repeat(2000)}b$`;
    expect(allowed(robots, `/${"a".repeat(2000)}`)).toBe(true);
  });
});
