import { describe, expect, it } from "vitest";
import type { FetchResult } from "../../src/result.js";
import { fixtureSuite } from "../helpers/web.js";

const suite = fixtureSuite();

const PHASES = ["dnsMs", "connectMs", "firstByteMs", "convertMs"] as const;

function expectPhases(result: FetchResult, phases: readonly (typeof PHASES)[number][]): void {
  for (const phase of phases) {
    expect(typeof result.timings[phase], phase).toBe("number");
    expect(result.timings[phase], phase).toBeGreaterThanOrEqual(0);
  }
}

describe("fetch: phase timings", () => {
  it("a page fetched from the network has all four phases and the total", async () => {
    const r = await suite.t.web.fetch(suite.server.url("/article"), { cache: false });
    expectPhases(r, PHASES);
    expect(r.timings.totalMs).toBeGreaterThanOrEqual(0);
  });

  it("the wait for a server's answer is the first byte's, not the connection's", async () => {
    const r = await suite.t.web.fetch(suite.server.url("/late?ms=150"), { cache: false });
    expectPhases(r, PHASES);
    // A lower bound only: a busy machine can make any phase longer, never shorter.
    expect(r.timings.firstByteMs).toBeGreaterThanOrEqual(140);
    expect(r.timings.totalMs).toBeGreaterThanOrEqual(r.timings.firstByteMs!);
  });

  it("the wait after a 103 Early Hints for the response itself is the first byte's too", async () => {
    const r = await suite.t.web.fetch(suite.server.url("/early-hints?ms=150"), { cache: false });
    expect(r.content).toContain("hinted");
    expect(r.timings.firstByteMs).toBeGreaterThanOrEqual(140);
  });

  it("a host name resolved through the guard, and a redirect chain, have them too", async () => {
    const r = await suite.t.web.fetch(suite.server.url("/redirect?n=2", "timings.test"), {
      cache: false,
    });
    expect(r.redirects).toHaveLength(2);
    expectPhases(r, PHASES);
  });

  it("a result the cache answers keeps the total alone", async () => {
    const url = suite.server.url("/markdown");
    const first = await suite.t.web.fetch(url);
    expect(first.cached).toBe(false);
    expectPhases(first, PHASES);
    const again = await suite.t.web.fetch(url);
    expect(again.cached).toBe(true);
    expect(Object.keys(again.timings)).toEqual(["totalMs"]);
  });

  it("a prompt answered without a model keeps the phases of its fetch", async () => {
    const r = await suite.t.web.fetch(suite.server.url("/long"), {
      prompt: "paragraph",
      cache: false,
    });
    expectPhases(r, PHASES);
  });
});
