/**
 * The one answer to "does this host mean this machine?" and "does this bind name no host?",
 * shared by the service's Host and Origin check and `webfetch serve`.
 */
import { describe, expect, it } from "vitest";
import { isLoopbackHost, isWildcardHost } from "../../src/server/hosts.js";

describe("isLoopbackHost", () => {
  it.each(["localhost", "LOCALHOST", "127.0.0.1", "127.0.0.2", "127.255.255.254", "::1", "[::1]"])(
    "%s means this machine",
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );

  it.each([
    "0.0.0.0",
    "::",
    "",
    "10.0.0.1",
    "128.0.0.1",
    "127.example.com",
    "localhost.example.com",
    "::ffff:127.0.0.1",
  ])("%s does not", (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe("isWildcardHost", () => {
  it.each(["0.0.0.0", "::", "[::]", ""])("%s binds every interface", (host) => {
    expect(isWildcardHost(host)).toBe(true);
  });

  it.each(["127.0.0.1", "::1", "localhost", "192.0.2.1"])("%s does not", (host) => {
    expect(isWildcardHost(host)).toBe(false);
  });
});
