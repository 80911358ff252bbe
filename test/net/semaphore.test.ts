/**
 * The counting semaphore behind an instance's fetch limit, its renders and each origin's
 * politeness: slots granted at once while free, then in order of asking; a waiter that gives up
 * leaves the queue and holds nothing.
 */
import { describe, expect, it } from "vitest";
import { Semaphore } from "../../src/net/semaphore.js";

/** Whether `promise` has settled after the current turn's callbacks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("Semaphore", () => {
  it("grants free slots at once and the next only when one is released", async () => {
    const slots = new Semaphore(2);
    const first = await slots.acquire();
    await slots.acquire();
    const third = slots.acquire();
    expect(await settled(third)).toBe(false);
    first();
    expect(await settled(third)).toBe(true);
    expect(slots.idle).toBe(false);
  });

  it("hands released slots to waiters in the order they asked", async () => {
    const slots = new Semaphore(1);
    const held = await slots.acquire();
    const order: number[] = [];
    const waiters = [1, 2, 3].map((n) =>
      slots.acquire().then((release) => {
        order.push(n);
        return release;
      }),
    );
    held();
    for (const waiter of waiters) (await waiter)();
    expect(order).toEqual([1, 2, 3]);
    expect(slots.idle).toBe(true);
  });

  it("counts a release called twice once", async () => {
    const slots = new Semaphore(1);
    const release = await slots.acquire();
    release();
    release();
    await slots.acquire();
    expect(await settled(slots.acquire())).toBe(false);
  });

  it("rejects a waiter whose signal aborts with its reason, and it holds no slot", async () => {
    const slots = new Semaphore(1);
    const held = await slots.acquire();
    const caller = new AbortController();
    const waiting = slots.acquire(caller.signal);
    const reason = new Error("gave up");
    caller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    held();
    expect(slots.idle).toBe(true);
  });

  it("rejects at once when the signal has already aborted, even with a slot free", async () => {
    const slots = new Semaphore(1);
    const caller = new AbortController();
    caller.abort(new Error("before"));
    await expect(slots.acquire(caller.signal)).rejects.toThrow("before");
    expect(slots.idle).toBe(true);
  });

  it("hands a free slot over at once with tryAcquire, and none while all are held", async () => {
    const slots = new Semaphore(1);
    const held = slots.tryAcquire();
    expect(held).toBeTypeOf("function");
    expect(slots.tryAcquire()).toBeUndefined();
    const waiter = slots.acquire();
    held!();
    // The released slot went to the waiter, not back to be tried for.
    expect(slots.tryAcquire()).toBeUndefined();
    (await waiter)();
    expect(slots.idle).toBe(true);
  });
});
