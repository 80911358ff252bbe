/**
 * URL policy: what is INVALID_URL, and how the WHATWG parser in Node 20 canonicalizes the host
 * spellings an attacker uses (these tests pin that behaviour, so a runtime change shows up here).
 */
import { describe, expect, it } from "vitest";
import { isWebFetchError } from "../../src/errors.js";
import { normalizeUrl, parseTargetUrl } from "../../src/net/url.js";

/** The error a call throws, for asserting code and message together. */
function errorOf(input: string): { code: string; message: string } {
  try {
    parseTargetUrl(input);
  } catch (error) {
    if (isWebFetchError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(input)} to be refused`);
}

describe("parseTargetUrl: what WHATWG turns into an IP literal", () => {
  it.each([
    ["http://2130706433/", "127.0.0.1"], // decimal
    ["http://0x7f000001/", "127.0.0.1"], // hex
    ["http://017700000001/", "127.0.0.1"], // octal
    ["http://0177.0.0.1/", "127.0.0.1"], // octal octet
    ["http://0x7f.1/", "127.0.0.1"], // hex, short
    ["http://0x7f.0x0.0x0.0x1/", "127.0.0.1"], // hex octets
    ["http://127.0.0.0x1/", "127.0.0.1"], // mixed
    ["http://127.1/", "127.0.0.1"], // short
    ["http://127.0.1/", "127.0.0.1"], // short
    ["http://0/", "0.0.0.0"], // single zero
    ["http://0000000000000000000177.0.0.1/", "127.0.0.1"], // long zero padding
    ["http://4294967295/", "255.255.255.255"], // largest 32-bit number
    ["http://１２７.０.０.１/", "127.0.0.1"], // full-width digits (NFKC)
    ["http://127。0。0。1/", "127.0.0.1"], // ideographic full stops
    ["http://①②⑦.0.0.1/", "127.0.0.1"], // circled digits (NFKC)
    ["http://０ｘ７ｆ.１/", "127.0.0.1"], // full-width hex
    ["http://127%2e0%2e0%2e1/", "127.0.0.1"], // percent-encoded dots
    ["http://%31%32%37.0.0.1/", "127.0.0.1"], // percent-encoded digits
    ["http://127.0.0.1./", "127.0.0.1"], // one trailing dot: still IPv4 to WHATWG
    ["http://0x7f.1./", "127.0.0.1"],
    ["HTTP://127.0.0.1:80/", "127.0.0.1"],
    ["http:\\\\127.0.0.1\\", "127.0.0.1"], // backslashes are slashes for http
    ["http:127.0.0.1/", "127.0.0.1"], // no slashes at all
    ["http:///127.0.0.1/", "127.0.0.1"], // extra slashes
    ["  http://127.0.0.1/\t", "127.0.0.1"],
    ["http://1.2.3.0x/", "1.2.3.0"], // "0x" alone is zero
  ])("%s → %s", (input, ip) => {
    const target = parseTargetUrl(input);
    expect(target.ipLiteral).toBe(ip);
    expect(target.hostname).toBe(ip);
    expect(target.url.hostname).toBe(ip);
  });

  it.each([
    ["http://127.0.0.1../", "127.0.0.1"],
    ["http://0x7f.1../", "127.0.0.1"],
    ["http://2130706433.../", "127.0.0.1"],
    ["http://93.184.215.14../", "93.184.215.14"],
  ])("%s: WHATWG keeps it a domain; stripped and parsed again it is %s", (input, ip) => {
    expect(new URL(input).hostname).toMatch(/\.\.$/);
    const target = parseTargetUrl(input);
    expect(target).toMatchObject({ hostname: ip, ipLiteral: ip });
    // The URL is rewritten so nothing downstream resolves the dotted spelling by itself.
    expect(target.url.hostname).toBe(ip);
  });

  it.each([
    ["http://[::1]/", "::1"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1"],
    ["http://[0:0:0:0:0:ffff:127.0.0.1]/", "::ffff:7f00:1"],
    ["http://[::FFFF:7F00:1]/", "::ffff:7f00:1"],
    ["http://[::127.0.0.1]/", "::7f00:1"],
    ["http://[::ffff:0:7f00:1]/", "::ffff:0:7f00:1"],
    ["http://[64:ff9b::169.254.169.254]/", "64:ff9b::a9fe:a9fe"],
    ["https://[2606:4700:0:0:0:0:0:1111]:8443/", "2606:4700::1111"],
  ])("IPv6 %s → %s without brackets", (input, ip) => {
    const target = parseTargetUrl(input);
    expect(target.ipLiteral).toBe(ip);
    expect(target.hostname).toBe(ip);
  });

  it("leaves names alone: no ipLiteral, trailing dots stripped from hostname only", () => {
    expect(parseTargetUrl("https://Example.COM./a")).toMatchObject({
      hostname: "example.com",
      port: 443,
    });
    expect(parseTargetUrl("https://example.com./a").url.hostname).toBe("example.com.");
    expect(parseTargetUrl("https://example.com/").ipLiteral).toBeUndefined();
    expect(parseTargetUrl("http://1e2/").ipLiteral).toBeUndefined(); // not a number to WHATWG
    expect(parseTargetUrl("http://localhost../").hostname).toBe("localhost");
  });

  it("maps IDN and compatibility forms to their ASCII names", () => {
    expect(parseTargetUrl("http://☃.com/").hostname).toBe("xn--n3h.com");
    expect(parseTargetUrl("http://ＬＯＣＡＬＨＯＳＴ/").hostname).toBe("localhost");
    expect(parseTargetUrl("http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/").hostname).toBe("localhost");
    expect(parseTargetUrl("http://loc%61lhost/").hostname).toBe("localhost");
    expect(parseTargetUrl("http://localhost。/").hostname).toBe("localhost");
    expect(parseTargetUrl("http://a\tb.com/").hostname).toBe("ab.com");
  });

  it("reports the port to connect to", () => {
    expect(parseTargetUrl("http://example.com/").port).toBe(80);
    expect(parseTargetUrl("https://example.com/").port).toBe(443);
    expect(parseTargetUrl("https://example.com:443/").port).toBe(443);
    expect(parseTargetUrl("http://example.com:8080/").port).toBe(8080);
    expect(parseTargetUrl("http://[::1]:9000/").port).toBe(9000);
  });
});

describe("parseTargetUrl: INVALID_URL", () => {
  it.each([
    "file:///etc/passwd",
    "data:text/plain,hi",
    "javascript:alert(1)",
    "ftp://example.com/",
    "gopher://example.com/",
    "ws://example.com/",
    "blob:https://example.com/uuid",
    "example.com:80", // a scheme named example.com
    "localhost:8080/",
  ])("%s: must be http or https", (input) => {
    expect(errorOf(input)).toEqual({
      code: "INVALID_URL",
      message: "Invalid URL: must be http or https",
    });
  });

  it.each([
    "http://user@example.com/",
    "http://user:pass@example.com/",
    "http://:pass@example.com/",
    "http://@example.com/",
    "http://:@example.com/",
    "http:@example.com/",
    "http:\\\\@example.com/",
    "http://example.com@127.0.0.1/",
    "http://a@b@example.com/",
    "http://us\ter@example.com/",
    "HTTPS://USER@EXAMPLE.COM/",
  ])("%j: credentials are not allowed", (input) => {
    expect(errorOf(input)).toEqual({
      code: "INVALID_URL",
      message: "Invalid URL: credentials are not allowed",
    });
  });

  it("does not mistake an @ after the authority for credentials", () => {
    expect(parseTargetUrl("https://example.com/@user").hostname).toBe("example.com");
    expect(parseTargetUrl("https://example.com?to=a@b").hostname).toBe("example.com");
    expect(parseTargetUrl("https://example.com#a@b").hostname).toBe("example.com");
    // A backslash ends the authority for http(s): WHATWG reads host example.com, path /@127.0.0.1/.
    expect(parseTargetUrl("http://example.com\\@127.0.0.1/").hostname).toBe("example.com");
  });

  it("says whether the input lacks a scheme or has a bad host", () => {
    expect(errorOf("example.com/page").message).toBe(
      "Invalid URL: not an absolute URL (expected http:// or https://…)",
    );
    expect(errorOf("http://exa mple.com/").message).toBe(
      "Invalid URL: cannot be parsed (check the host and port)",
    );
    expect(errorOf("").message).toBe("Invalid URL: empty");
  });

  it("refuses URLs longer than 2048 characters, counted after trimming", () => {
    const base = "https://example.com/";
    const exact = base + "a".repeat(2_048 - base.length);
    expect(parseTargetUrl(`  ${exact}  `).url.href).toBe(exact);
    expect(errorOf(`${exact}a`)).toEqual({
      code: "INVALID_URL",
      message: "Invalid URL: longer than 2048 characters",
    });
  });

  it.each([
    "",
    "   ",
    "example.com",
    "/relative/path",
    "http://",
    "http://./",
    "http://../",
    "http://1.2.3.4.5/",
    "http://256.0.0.1/",
    "http://0x100000000/",
    "http://09.0.0.1/",
    "http://1.2.3.09../", // invalid IPv4 once the trailing dots are gone
    "http://foo.0x7f.1/",
    "http://[fe80::1%25eth0]/",
    "http://[::1]./",
    "http://[2130706433]/",
    "http://localhost%00/",
    "http://xn--localhost/",
    "http://exa mple.com/",
    "http://example.com:65536/",
    "http://example.com:0/",
  ])("%j is INVALID_URL", (input) => {
    const error = errorOf(input);
    expect(error.code).toBe("INVALID_URL");
    expect(error.message).toMatch(/^Invalid URL: /);
  });
});

describe("normalizeUrl", () => {
  it.each([
    ["HTTPS://Example.COM:443/a?b=2&a=1#top", "https://example.com/a?b=2&a=1"],
    ["http://example.com:80/", "http://example.com/"],
    ["http://example.com:8080/x#", "http://example.com:8080/x"],
    ["http://example.com", "http://example.com/"],
    ["http://example.com/?", "http://example.com/?"],
    ["http://example.com/a/../b/./c", "http://example.com/b/c"],
    ["http://[::FFFF:127.0.0.1]/", "http://[::ffff:7f00:1]/"],
    ["http://example.com/a?b=#c#d", "http://example.com/a?b="],
    ["http://example.com/a%23b?q=%23#f", "http://example.com/a%23b?q=%23"],
  ])("%s → %s", (input, expected) => {
    expect(normalizeUrl(new URL(input))).toBe(expected);
  });

  it("does not modify the URL it is given", () => {
    const url = new URL("https://example.com/#frag");
    normalizeUrl(url);
    expect(url.hash).toBe("#frag");
  });
});
