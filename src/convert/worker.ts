/**
 * The thread side of the conversion pool: converts one body at a time, posted by
 * ConvertPool. A page that exhausts this thread's heap or runs past its deadline takes only
 * this thread down; the pool replaces it.
 */
import { parentPort } from "node:worker_threads";
import { isWebFetchError } from "../errors.js";
import { type ConvertedBody, type ConvertOptions, convertBody } from "./index.js";

/** A job from the pool. */
export interface ConvertJob {
  id: number;
  body: Uint8Array;
  headerType: string | undefined;
  options: ConvertOptions;
}

/** The answer to a job: the converted body, or the error it raised. */
export type ConvertReply =
  | { id: number; ok: true; value: ConvertedBody }
  | { id: number; ok: false; code?: string; message: string; retryable?: boolean };

parentPort?.on("message", async (job: ConvertJob) => {
  let reply: ConvertReply;
  try {
    const value = await convertBody(job.body, job.headerType, job.options);
    reply = { id: job.id, ok: true, value };
  } catch (error) {
    reply = isWebFetchError(error)
      ? {
          id: job.id,
          ok: false,
          code: error.code,
          message: error.message,
          retryable: error.retryable,
        }
      : { id: job.id, ok: false, message: String((error as Error)?.message ?? error) };
  }
  parentPort!.postMessage(reply);
});
