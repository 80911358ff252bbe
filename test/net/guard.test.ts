/**
 * The guard's answer without a wait: an IP literal and a name whose pinned answer has come are
 * checked at once, exactly as resolve() checks them, port by port; a name not resolved yet says
 * so, and nothing here ever connects anywhere.
 */
import { describe, expect, it } from "vitest";
import { AddressGuard } from "../../src/net/guard.js";

/** A guard whose lookup answers from `names` and counts its calls. */
function guardWith(names: Record<string, string[]>, allowAddresses: string[] = []) {
  const calls: string[] = [];
  const guard = new AddressGuard({
    allowPrivateNetwork: false,
    allowAddresses,
    lookup: async (host) => {
      calls.push(host);
      const answer = names[host];
      if (!answer)
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
      return answer.map((address) => ({
        address,
        family: address.includes(":") ? 6 : 4,
      }));
    },
  });
  return { guard, calls };
}

const code = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return "OK";
};

describe("AddressGuard.resolvedNow", () => {
  it("checks an IP literal at once: public passes, private and metadata are refused", () => {
    const { guard, calls } = guardWith({});
    expect(guard.resolvedNow("93.184.215.14", 80)).toBe("93.184.215.14");
    expect(guard.resolvedNow("[2606:4700::1111]", 443)).toBe("2606:4700::1111");
    expect(code(() => guard.resolvedNow("127.0.0.1", 80))).toBe("BLOCKED_ADDRESS");
    expect(code(() => guard.resolvedNow("169.254.169.254", 80))).toBe("BLOCKED_ADDRESS");
    expect(code(() => guard.resolvedNow("[::1]", 80))).toBe("BLOCKED_ADDRESS");
    expect(calls).toEqual([]);
  });

  it("refuses a blocked name at once, and knows nothing yet of a name not resolved", () => {
    const { guard, calls } = guardWith({ "example.test": ["93.184.215.14"] });
    expect(code(() => guard.resolvedNow("localhost", 80))).toBe("BLOCKED_ADDRESS");
    expect(guard.resolvedNow("example.test", 80)).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it("answers from the pinned resolution once it has come, checking it again for each port", async () => {
    const { guard, calls } = guardWith(
      { "site.test": ["127.0.0.1"], "mixed.test": ["93.184.215.14", "10.0.0.5"] },
      ["127.0.0.1:8080"],
    );
    expect(await guard.resolve("site.test", 8080)).toBe("127.0.0.1");
    expect(guard.resolvedNow("site.test", 8080)).toBe("127.0.0.1");
    expect(guard.resolvedNow("site.test.", 8080)).toBe("127.0.0.1");
    // The hole is for one port: the same pinned answer on another port is refused.
    expect(code(() => guard.resolvedNow("site.test", 9090))).toBe("BLOCKED_ADDRESS");
    await expect(guard.resolve("mixed.test", 80)).rejects.toMatchObject({
      code: "BLOCKED_ADDRESS",
    });
    // A mixed answer stays refused when read back without a wait.
    expect(code(() => guard.resolvedNow("mixed.test", 80))).toBe("BLOCKED_ADDRESS");
    expect(calls).toEqual(["site.test", "mixed.test"]);
  });

  it("pins no failed answer: the next resolve asks again", async () => {
    const { guard, calls } = guardWith({});
    await expect(guard.resolve("gone.test", 80)).rejects.toMatchObject({
      code: "CONNECT_FAILED",
    });
    expect(guard.resolvedNow("gone.test", 80)).toBeUndefined();
    await expect(guard.resolve("gone.test", 80)).rejects.toMatchObject({
      code: "CONNECT_FAILED",
    });
    expect(calls).toEqual(["gone.test", "gone.test"]);
  });

  it("gives an address the same verdict every time it is asked, port by port", () => {
    const { guard } = guardWith({}, ["127.0.0.1:8080"]);
    for (let i = 0; i < 3; i++) {
      expect(guard.refusal("127.0.0.1", 8080)).toBeUndefined();
      expect(guard.refusal("127.0.0.1", 8081)).toBe("a loopback address");
      expect(guard.refusal("169.254.169.254", 80)).toMatch(/metadata/);
      expect(guard.refusal("93.184.215.14", 443)).toBeUndefined();
    }
  });
});
