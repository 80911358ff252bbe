/**
 * Looking up what a fetch needs to know at once (a host's pinned addresses, an origin's
 * robots.txt verdict, a page in the memory cache) makes no timer: a timer per fetch is work no fetch needs, and nothing here
 * connects anywhere.
 */
import { createHook } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/cache/memory.js";
import { Deadline } from "../../src/net/deadline.js";
import { AddressGuard } from "../../src/net/guard.js";
import { RobotsPolicy } from "../../src/net/robots-policy.js";

/** Timers made while `work` runs (its synchronous part and the promises it awaits). */
async function timersMadeBy(work: () => unknown): Promise<number> {
  let made = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "Timeout") made++;
    },
  }).enable();
  try {
    await work();
  } finally {
    hook.disable();
  }
  return made;
}

describe("look-ups made by every fetch", () => {
  it("read a pinned resolution without making a timer", async () => {
    const guard = new AddressGuard({
      allowPrivateNetwork: false,
      allowAddresses: [],
      lookup: async () => [{ address: "93.184.215.14", family: 4 }],
    });
    await guard.resolve("example.com", 443);
    const made = await timersMadeBy(() => {
      for (let i = 0; i < 50; i++)
        expect(guard.resolvedNow("example.com", 443)).toBe("93.184.215.14");
    });
    expect(made).toBe(0);
  });

  it("read a known robots.txt verdict without making a timer", async () => {
    const robots = new RobotsPolicy(async () => ({ status: 404, body: "" }), "webfetch");
    const deadline = new Deadline(10_000);
    try {
      const page = (i: number) => new URL(`https://example.com/page/${i}`);
      await robots.check(page(0), deadline);
      const made = await timersMadeBy(async () => {
        for (let i = 1; i <= 50; i++) await robots.check(page(i), deadline);
      });
      expect(made).toBe(0);
    } finally {
      deadline.close();
    }
  });

  it("read a page from the memory cache without making a timer", async () => {
    const store = new MemoryStore({ maxBytes: 1024 * 1024 });
    const page = {
      url: "https://example.com/",
      finalUrl: "https://example.com/",
      redirects: [],
      status: 200,
      contentType: "text/plain",
      content: "Hello",
      fetchedAt: new Date(0).toISOString(),
    };
    await store.set("page", { page, storedAt: 0 }, 3600);
    const made = await timersMadeBy(async () => {
      for (let i = 0; i < 50; i++) expect((await store.get("page"))?.page.content).toBe("Hello");
    });
    expect(made).toBe(0);
  });
});
