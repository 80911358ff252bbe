/**
 * A fetch's deadline: the time budget and the caller's cancel in one signal, and nothing left on
 * the caller's signal once the deadline is closed (a crawl's signal outlives thousands of pages).
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { Deadline } from "../../src/net/deadline.js";
import { Semaphore } from "../../src/net/semaphore.js";

const never = () => new Promise<never>(() => {});

describe("Deadline", () => {
  it("passes the caller's cancel on: the signal aborts and a waiting stage rejects with it", async () => {
    const caller = new AbortController();
    const deadline = new Deadline(60_000, caller.signal);
    const waiting = deadline.race(never());
    const reason = new Error("stop");
    caller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.cancelled).toBe(true);
    expect(deadline.expired).toBe(false);
    deadline.close();
  });

  it("starts cancelled when the caller's signal already is", async () => {
    const caller = new AbortController();
    caller.abort(new Error("before"));
    const deadline = new Deadline(60_000, caller.signal);
    expect(deadline.cancelled).toBe(true);
    await expect(deadline.race(Promise.resolve(1))).rejects.toThrow("before");
  });

  it("ends with TIMEOUT when the time is spent, every waiting stage at once", async () => {
    const deadline = new Deadline(20);
    const stages = [deadline.race(never()), deadline.race(never()), deadline.sleep(60_000)];
    for (const stage of stages) await expect(stage).rejects.toMatchObject({ code: "TIMEOUT" });
    expect(deadline.expired).toBe(true);
    expect(deadline.cancelled).toBe(false);
    expect(deadline.signal.reason).toMatchObject({ name: "TimeoutError" });
  });

  it("ends with TIMEOUT, not a cancel, when the caller's own time runs out first", async () => {
    // A map's deadline around its start page's: the outer timer may fire a moment before the
    // inner one, and the page's stages must still answer TIMEOUT.
    const outer = new Deadline(20);
    const inner = new Deadline(60_000, outer.signal);
    await expect(inner.race(never())).rejects.toMatchObject({ code: "TIMEOUT" });
    expect(inner.expired).toBe(true);
    expect(inner.cancelled).toBe(false);
    const timedOut = new Deadline(60_000, AbortSignal.abort(new DOMException("t", "TimeoutError")));
    await expect(timedOut.race(never())).rejects.toMatchObject({ code: "TIMEOUT" });
    inner.close();
    outer.close();
  });

  it("hands back what a stage gives, and its failure", async () => {
    const deadline = new Deadline(60_000);
    await expect(deadline.race(Promise.resolve("ok"))).resolves.toBe("ok");
    await expect(deadline.race(Promise.reject(new Error("no")))).rejects.toThrow("no");
    deadline.close();
  });

  it("leaves no listener on the caller's signal once closed, however many deadlines it had", () => {
    const caller = new AbortController();
    const deadlines = Array.from({ length: 50 }, () => new Deadline(60_000, caller.signal));
    // One listener for all of them: fifty would make Node warn of a leak.
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(1);
    for (const deadline of deadlines) deadline.close();
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    caller.abort();
    for (const deadline of deadlines) expect(deadline.signal.aborted).toBe(false);
  });

  it("passes one cancel on to every deadline still open on the caller's signal", () => {
    const caller = new AbortController();
    const deadlines = Array.from({ length: 30 }, () => new Deadline(60_000, caller.signal));
    const closed = deadlines.filter((_, i) => i % 3 === 0);
    for (const deadline of closed) deadline.close();
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(1);
    const reason = new Error("stop");
    caller.abort(reason);
    for (const deadline of deadlines) {
      const open = !closed.includes(deadline);
      expect(deadline.cancelled).toBe(open);
      expect(deadline.signal.reason).toBe(open ? reason : undefined);
    }
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    // A deadline made on the signal afterwards starts cancelled, and follows nothing.
    expect(new Deadline(60_000, caller.signal).cancelled).toBe(true);
    // Closing the ones that were told changes nothing.
    for (const deadline of deadlines) deadline.close();
  });

  it("lets go of the caller's signal when its own time runs out", async () => {
    const caller = new AbortController();
    const deadline = new Deadline(20, caller.signal);
    await expect(deadline.race(never())).rejects.toMatchObject({ code: "TIMEOUT" });
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
  });

  it("aborts its events as its signal, and a signal first read after the abort is aborted", async () => {
    const caller = new AbortController();
    const deadline = new Deadline(60_000, caller.signal);
    const heard: unknown[] = [];
    deadline.events.once("abort", () => heard.push(deadline.events.reason));
    expect(deadline.events.aborted).toBe(false);
    const reason = new Error("stop");
    caller.abort(reason);
    expect(heard).toEqual([reason]);
    expect(deadline.events.aborted).toBe(true);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe(reason);

    const timed = new Deadline(20);
    const timedOut = new Promise((resolve) => timed.events.once("abort", resolve));
    await timedOut;
    expect(timed.signal.reason).toMatchObject({ name: "TimeoutError" });
  });

  it("takes a free slot at once, waits for one otherwise, and takes none once done", async () => {
    const slots = new Semaphore(1);
    const deadline = new Deadline(60_000);
    const release = await deadline.slot(
      (signal) => slots.acquire(signal),
      () => slots.tryAcquire(),
    );
    expect(slots.tryAcquire()).toBeUndefined();
    // No slot free: the deadline waits for one, and gets it when the first is released.
    const waiting = deadline.slot(
      (signal) => slots.acquire(signal),
      () => slots.tryAcquire(),
    );
    release();
    (await waiting)();
    expect(slots.idle).toBe(true);

    const caller = new AbortController();
    const cancelled = new Deadline(60_000, caller.signal);
    caller.abort(new Error("gone"));
    await expect(
      cancelled.slot(
        (signal) => slots.acquire(signal),
        () => slots.tryAcquire(),
      ),
    ).rejects.toThrow("gone");
    expect(slots.idle).toBe(true);
    deadline.close();
  });

  it("lets any number of stages wait for a slot on one deadline, without a leak warning", async () => {
    // A rendered page's subresources all queue for their origin's one politeness slot.
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const slots = new Semaphore(1);
      const deadline = new Deadline(60_000);
      const first = await deadline.slot((signal) => slots.acquire(signal));
      const waiting = Array.from({ length: 30 }, () =>
        deadline.slot((signal) => slots.acquire(signal)),
      );
      expect(getEventListeners(deadline.signal, "abort")).toHaveLength(30);
      first();
      for (const slot of waiting) (await slot)();
      // Each waiter stops listening once served.
      expect(getEventListeners(deadline.signal, "abort")).toHaveLength(0);
      expect(slots.idle).toBe(true);
      deadline.close();
      // Node emits its warning on a later turn.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
