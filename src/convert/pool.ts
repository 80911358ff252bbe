/**
 * Converts bodies on worker threads, so hostile HTML can neither block the event loop nor
 * exhaust the process: each thread has a bounded heap (`resourceLimits`), and a conversion that
 * outlives its fetch's deadline is stopped by terminating its thread. A thread that dies is
 * replaced on the next job.
 */
import type { EventEmitter } from "node:events";
import { Worker } from "node:worker_threads";
import type { ErrorCode } from "../errors.js";
import { WebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";
import type { ConvertedBody, ConvertOptions } from "./index.js";
import type { ConvertJob, ConvertReply } from "./worker.js";

/**
 * What stops a job: an AbortSignal, or an EventEmitter that emits "abort" and has `aborted` and
 * `reason` as a signal does (a deadline's events, cheaper than a signal to make and to listen to).
 */
export type Cancel =
  | AbortSignal
  | (EventEmitter & { readonly aborted: boolean; readonly reason: unknown });

/** Listens once for `cancel`'s abort; the function returned stops listening. */
function onCancel(cancel: Cancel, listener: () => void): () => void {
  if ("addEventListener" in cancel) {
    cancel.addEventListener("abort", listener, { once: true });
    return () => cancel.removeEventListener("abort", listener);
  }
  cancel.once("abort", listener);
  return () => cancel.off("abort", listener);
}

interface Task {
  job: ConvertJob;
  signal: Cancel;
  resolve: (value: ConvertedBody) => void;
  reject: (error: unknown) => void;
  /** Stops listening to `signal`. */
  forget: () => void;
}

/**
 * Starts a thread on the compiled worker, or, when running from the TypeScript source (tests,
 * bench), on the source through tsx's loader, which a thread must register for itself.
 */
function startWorker(options: ConstructorParameters<typeof Worker>[1]): Worker {
  if (!import.meta.url.endsWith(".ts")) {
    return new Worker(new URL("./worker.js", import.meta.url), options);
  }
  const source = new URL("./worker.ts", import.meta.url).href;
  const boot = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(boot, { ...options, eval: true });
}

/** Options of every thread: a bounded heap, and none of the host's flags or output. */
function threadOptions(heapMb: number): ConstructorParameters<typeof Worker>[1] {
  return {
    // A thread needs none of the host's flags, and some break it: --input-type or -e make
    // every file-based thread fail to start, and an --import hook would load twice.
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
    stdout: false,
    stderr: false,
  };
}

/** A thread started before any pool needed one, until the first pool takes it. */
let spare: { worker: Worker; forget: () => void } | undefined;

/**
 * Starts a conversion thread now, for the first pool with the default heap to take when it
 * needs one: a one-shot command (the CLI's fetch) starts it before it loads the rest of the
 * library, so the thread loads its modules on another core meanwhile. The thread keeps nothing
 * alive; one that fails before it is taken is forgotten.
 */
export function warmConvertThread(): void {
  if (spare) return;
  const worker = startWorker(threadOptions(LIMITS.convertHeapMb));
  const forget = () => {
    if (spare?.worker === worker) spare = undefined;
  };
  worker.once("error", forget).once("exit", forget);
  worker.unref();
  spare = { worker, forget };
}

/** The spare thread, if there is one, now the caller's. */
function takeSpare(): Worker | undefined {
  if (!spare) return undefined;
  const { worker, forget } = spare;
  spare = undefined;
  worker.off("error", forget).off("exit", forget);
  return worker;
}

export interface ConvertPoolOptions {
  /** Threads at most. */
  threads?: number;
  /** Old-generation heap of each thread, MiB. */
  heapMb?: number;
}

export class ConvertPool {
  readonly #threads: number;
  readonly #heapMb: number;
  readonly #idle: Worker[] = [];
  readonly #busy = new Map<Worker, Task>();
  readonly #queue: Task[] = [];
  #nextId = 0;
  #closed = false;

  constructor(options: ConvertPoolOptions = {}) {
    this.#threads = options.threads ?? LIMITS.convertThreads;
    this.#heapMb = options.heapMb ?? LIMITS.convertHeapMb;
  }

  /**
   * Converts `body` on a thread. Rejects with the conversion's own error, TOO_LARGE when the
   * page needs more memory than a thread has, or `signal.reason` once `signal` aborts.
   */
  convert(
    body: Uint8Array,
    headerType: string | undefined,
    options: ConvertOptions,
    signal: Cancel,
  ): Promise<ConvertedBody> {
    if (this.#closed) return Promise.reject(new Error("ConvertPool is closed"));
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<ConvertedBody>((resolve, reject) => {
      // A copy the thread can own: the body may be a view into a pooled buffer.
      const job: ConvertJob = {
        id: this.#nextId++,
        body: new Uint8Array(body),
        headerType,
        options,
      };
      const task: Task = { job, signal, resolve, reject, forget: () => {} };
      task.forget = onCancel(signal, () => this.#abort(task));
      this.#queue.push(task);
      this.#dispatch();
    });
  }

  /**
   * Starts a thread when the pool has none, so the first conversion does not wait for one to
   * start and load its modules: called as a fetch starts, it loads while the page downloads.
   */
  warm(): void {
    if (this.#closed || this.#idle.length > 0 || this.#busy.size > 0) return;
    const worker = this.#spawn();
    worker.unref();
    this.#idle.push(worker);
  }

  /** Stops every thread; jobs still waiting are rejected. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const task of this.#queue.splice(0)) this.#settle(task, new Error("ConvertPool closed"));
    const workers = [...this.#idle.splice(0), ...this.#busy.keys()];
    for (const [, task] of this.#busy) this.#settle(task, new Error("ConvertPool closed"));
    this.#busy.clear();
    await Promise.all(workers.map((w) => w.terminate()));
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      let worker = this.#idle.pop();
      if (!worker) {
        if (this.#busy.size >= this.#threads) return;
        worker = this.#spawn();
      }
      const task = this.#queue.shift()!;
      this.#busy.set(worker, task);
      worker.ref();
      worker.postMessage(task.job, [task.job.body.buffer as ArrayBuffer]);
    }
  }

  #spawn(): Worker {
    const worker =
      (this.#heapMb === LIMITS.convertHeapMb ? takeSpare() : undefined) ??
      startWorker(threadOptions(this.#heapMb));
    worker.on("message", (reply: ConvertReply) => {
      const task = this.#busy.get(worker);
      if (!task || task.job.id !== reply.id) return;
      this.#busy.delete(worker);
      worker.unref();
      this.#idle.push(worker);
      if (reply.ok) this.#settle(task, undefined, reply.value);
      else this.#settle(task, replyError(reply));
      this.#dispatch();
    });
    worker.on("error", (error: Error & { code?: string }) => {
      const task = this.#busy.get(worker);
      this.#drop(worker);
      if (task) {
        this.#settle(
          task,
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new WebFetchError(
                "TOO_LARGE",
                `The page needs more than ${this.#heapMb} MiB to convert`,
                { cause: error, retryable: false },
              )
            : new WebFetchError("PARSE_ERROR", `Conversion failed: ${error.message}`, {
                cause: error,
                retryable: false,
              }),
        );
      }
      this.#dispatch();
    });
    worker.on("exit", () => {
      const task = this.#busy.get(worker);
      this.#drop(worker);
      if (task) this.#settle(task, new WebFetchError("PARSE_ERROR", "Conversion thread exited"));
      if (!this.#closed) this.#dispatch();
    });
    return worker;
  }

  /** A job's deadline passed or its caller cancelled: forget it, stopping its thread if running. */
  #abort(task: Task): void {
    const queued = this.#queue.indexOf(task);
    if (queued >= 0) {
      this.#queue.splice(queued, 1);
    } else {
      for (const [worker, running] of this.#busy) {
        if (running !== task) continue;
        this.#drop(worker);
        void worker.terminate();
        break;
      }
    }
    this.#settle(task, task.signal.reason);
    this.#dispatch();
  }

  #drop(worker: Worker): void {
    this.#busy.delete(worker);
    const i = this.#idle.indexOf(worker);
    if (i >= 0) this.#idle.splice(i, 1);
  }

  #settle(task: Task, error: unknown, value?: ConvertedBody): void {
    task.forget();
    if (error !== undefined) task.reject(error);
    else task.resolve(value!);
  }
}

function replyError(reply: Extract<ConvertReply, { ok: false }>): Error {
  if (reply.code === undefined) return new WebFetchError("PARSE_ERROR", reply.message);
  return new WebFetchError(reply.code as ErrorCode, reply.message, {
    retryable: reply.retryable ?? false,
  });
}
