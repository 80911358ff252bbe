/**
 * One queued crawl's state in Redis, under `webfetch:crawl:{id}:…`: its meta (start URL, checked
 * options, status, times, error), the URLs seen, the jobs still open, the pages and failures,
 * the counters, the names and text hashes claimed, and the cancel flag. Every step that must not
 * be split (a URL first seen becomes an open job; the last open job ends the crawl; a page is
 * stored once) is one Lua script, so workers that die or run a job twice cannot break it.
 *
 * Jobs run at least once: each outcome is recorded under the job's id once, a page under its
 * URL once, and a job's claims are its own, so a second run of a job redoes its work without
 * counting or storing anything twice.
 */
import type { CrawlFailure, CrawlPage } from "../result.js";
import type { CrawlWarning } from "../warnings.js";
import type { CrawlCall, PageClaims } from "../webfetch/crawl-visit.js";
import { luaScript, type RedisClient, runScript } from "./connection.js";
import type { CrawlJobStatus } from "./contract.js";

/** Where a queued crawl stands. */

/** A crawl's options as stored: checked, without the signal and the progress callback. */
export type StoredCrawlCall = Omit<CrawlCall, "signal" | "onProgress">;

/** How long a crawl's keys live once it has ended, seconds. */
export const ENDED_TTL_SECONDS = 24 * 3600;
/** How long a running crawl's keys live without a worker touching them, seconds. */
export const RUNNING_TTL_SECONDS = 7 * 24 * 3600;

/** The counters of a crawl. */
export const COUNTERS = [
  "fetches",
  "pages",
  "failed",
  "robots",
  "filtered",
  "duplicate",
  "limit",
] as const;
export type Counter = (typeof COUNTERS)[number];

/** What a job came to, recorded once per job. */
export type JobOutcome =
  | "page"
  | "failed"
  | "robots"
  | "claimed"
  | "duplicate"
  | "limit"
  | "cancelled";

/** The keys of one crawl. The id is a hash tag, so one crawl's keys share a cluster slot. */
export function crawlKeys(id: string) {
  const key = (name: string) => `webfetch:crawl:{${id}}:${name}`;
  return {
    meta: key("meta"),
    seen: key("seen"),
    open: key("open"),
    done: key("done"),
    cancel: key("cancel"),
    counts: key("counts"),
    names: key("names"),
    hashes: key("hashes"),
    taken: key("taken"),
    outcomes: key("outcomes"),
    paged: key("paged"),
    pages: key("pages"),
    failures: key("failures"),
    warnings: key("warnings"),
  };
}
export type CrawlKeys = ReturnType<typeof crawlKeys>;

/** Every key of a crawl, for the TTL. */
function allKeys(keys: CrawlKeys): string[] {
  return Object.values(keys);
}

/**
 * A URL seen for the first time becomes an open job. KEYS: seen, open, counts, warnings.
 * ARGV: url, job id, frontier bound, the frontier warning (JSON). Returns 1 when the URL is new
 * and queued, 2 when it is new and past the frontier's bound (counted as `limit`), 0 when seen.
 */
const ENQUEUE = luaScript(`
if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 0 end
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[3]) then
  redis.call('HINCRBY', KEYS[3], 'limit', 1)
  redis.call('SADD', KEYS[4], ARGV[4])
  return 2
end
redis.call('SADD', KEYS[2], ARGV[2])
return 1
`);

/** A URL left out, counted when new to `seen`. KEYS: seen, counts. ARGV: url, counter. */
const SKIP = luaScript(`
if redis.call('SADD', KEYS[1], ARGV[1]) == 1 then
  redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
  return 1
end
return 0
`);

/**
 * Closes a job; the last one ends the crawl, once, with its status. KEYS: open, done, meta,
 * cancel, then every key of the crawl. ARGV: job id, now (ms), TTL once ended (s). Returns 1 for
 * the call that ended the crawl.
 */
const FINISH = luaScript(`
redis.call('SREM', KEYS[1], ARGV[1])
if redis.call('SCARD', KEYS[1]) ~= 0 then return 0 end
if not redis.call('SET', KEYS[2], ARGV[2], 'NX') then return 0 end
local status = 'completed'
if redis.call('EXISTS', KEYS[4]) == 1 then status = 'cancelled'
elseif redis.call('HEXISTS', KEYS[3], 'error') == 1 then status = 'failed' end
redis.call('HSET', KEYS[3], 'status', status, 'endedAt', ARGV[2])
for i = 5, #KEYS do redis.call('EXPIRE', KEYS[i], ARGV[3]) end
return 1
`);

/**
 * A place under the crawl's limit for a job, once. KEYS: counts, taken. ARGV: job id, limit.
 * Returns 1 when the job has a place (now or from an earlier run), 0 when the limit is reached.
 */
const TAKE = luaScript(`
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 1 end
if tonumber(redis.call('HGET', KEYS[1], 'fetches') or '0') >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], '1')
redis.call('HINCRBY', KEYS[1], 'fetches', 1)
return 1
`);

/** A job's place given back (nothing was fetched). KEYS: counts, taken. ARGV: job id. */
const GIVE_BACK = luaScript(`
if redis.call('HDEL', KEYS[2], ARGV[1]) == 1 then redis.call('HINCRBY', KEYS[1], 'fetches', -1) end
return 1
`);

/**
 * A job's outcome, once: the counter moved and the item (a failure) stored the first time.
 * KEYS: outcomes, counts, list. ARGV: job id, outcome, counter ('' for none), item ('' for none).
 */
const RECORD = luaScript(`
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
if ARGV[3] ~= '' then redis.call('HINCRBY', KEYS[2], ARGV[3], 1) end
if ARGV[4] ~= '' then redis.call('RPUSH', KEYS[3], ARGV[4]) end
return 1
`);

/**
 * A page, stored once under its URL. KEYS: outcomes, counts, pages, paged. ARGV: job id, url,
 * page (JSON). Returns 1 when stored now.
 */
const PAGE = luaScript(`
redis.call('HSETNX', KEYS[1], ARGV[1], 'page')
if redis.call('HSETNX', KEYS[4], ARGV[2], '1') == 0 then return 0 end
redis.call('RPUSH', KEYS[3], ARGV[3])
redis.call('HINCRBY', KEYS[2], 'pages', 1)
return 1
`);

/**
 * Claims a page's names and text hash for a job, unless another job holds one of them.
 * KEYS: names, hashes. ARGV: job id, hash, names…
 */
const CLAIM = luaScript(`
local owner = redis.call('HGET', KEYS[2], ARGV[2])
if owner and owner ~= ARGV[1] then return 0 end
for i = 3, #ARGV do
  owner = redis.call('HGET', KEYS[1], ARGV[i])
  if owner and owner ~= ARGV[1] then return 0 end
end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
for i = 3, #ARGV do redis.call('HSET', KEYS[1], ARGV[i], ARGV[1]) end
return 1
`);

/** Sets the TTL of every key given. KEYS: the keys. ARGV: seconds. */
const EXPIRE = luaScript(`
for i = 1, #KEYS do redis.call('EXPIRE', KEYS[i], ARGV[1]) end
return 1
`);

/** The meta of a crawl as stored. */
export interface CrawlMeta {
  /** The start URL as asked. */
  url: string;
  /** The start URL, normalized. */
  start: string;
  call: StoredCrawlCall;
  status: CrawlJobStatus;
  createdAt: number;
  endedAt?: number;
  error?: { code: string; message: string };
}

/** One crawl's state in Redis. */
export class CrawlStore {
  readonly id: string;
  readonly keys: CrawlKeys;
  readonly #redis: RedisClient;

  constructor(redis: RedisClient, id: string) {
    this.#redis = redis;
    this.id = id;
    this.keys = crawlKeys(id);
  }

  /** Writes a new crawl's meta, with the running TTL. */
  async create(meta: Pick<CrawlMeta, "url" | "start" | "call" | "createdAt">): Promise<void> {
    await this.#redis.call(
      "HSET",
      this.keys.meta,
      "url",
      meta.url,
      "start",
      meta.start,
      "call",
      JSON.stringify(meta.call),
      "status",
      "running",
      "createdAt",
      meta.createdAt,
    );
    await this.refreshTtl();
  }

  /** The crawl's meta; undefined when the crawl is unknown or forgotten. */
  async meta(): Promise<CrawlMeta | undefined> {
    const flat = (await this.#redis.call("HGETALL", this.keys.meta)) as string[];
    if (!flat || flat.length === 0) return undefined;
    const fields: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!;
    if (fields.url === undefined || fields.call === undefined) return undefined;
    return {
      url: fields.url,
      start: fields.start ?? fields.url,
      call: JSON.parse(fields.call) as StoredCrawlCall,
      status: (fields.status ?? "running") as CrawlJobStatus,
      createdAt: Number(fields.createdAt),
      ...(fields.endedAt ? { endedAt: Number(fields.endedAt) } : {}),
      ...(fields.error
        ? { error: JSON.parse(fields.error) as { code: string; message: string } }
        : {}),
    };
  }

  /** Sets every key's TTL to the running one. */
  async refreshTtl(seconds = RUNNING_TTL_SECONDS): Promise<void> {
    await runScript(this.#redis, EXPIRE, allKeys(this.keys), [seconds]);
  }

  /** Queues a URL if it is new: 1 queued, 2 new but past the frontier's bound, 0 seen. */
  async enqueue(url: string, jobId: string, maxFrontier: number): Promise<0 | 1 | 2> {
    const warning: CrawlWarning = { kind: "frontier-full", max: maxFrontier };
    const { seen, open, counts, warnings } = this.keys;
    return Number(
      await runScript(
        this.#redis,
        ENQUEUE,
        [seen, open, counts, warnings],
        [url, jobId, maxFrontier, JSON.stringify(warning)],
      ),
    ) as 0 | 1 | 2;
  }

  /** Whether a job is still open. */
  async isOpen(jobId: string): Promise<boolean> {
    return Number(await this.#redis.call("SISMEMBER", this.keys.open, jobId)) === 1;
  }

  /** Counts a URL left out (`filtered`, or `limit` for too deep) when it is new. */
  async skip(url: string, counter: "filtered" | "limit"): Promise<void> {
    await runScript(this.#redis, SKIP, [this.keys.seen, this.keys.counts], [url, counter]);
  }

  /** Closes a job; true for the one call that ended the crawl. */
  async finish(jobId: string): Promise<boolean> {
    const { open, done, meta, cancel } = this.keys;
    const reply = await runScript(
      this.#redis,
      FINISH,
      [open, done, meta, cancel, ...allKeys(this.keys)],
      [jobId, Date.now(), ENDED_TTL_SECONDS],
    );
    return Number(reply) === 1;
  }

  /** A place under the limit for the job (kept across its runs); false past the limit. */
  async take(jobId: string, limit: number): Promise<boolean> {
    const reply = await runScript(
      this.#redis,
      TAKE,
      [this.keys.counts, this.keys.taken],
      [jobId, limit],
    );
    return Number(reply) === 1;
  }

  /** Gives the job's place back: it fetched nothing. */
  async giveBack(jobId: string): Promise<void> {
    await runScript(this.#redis, GIVE_BACK, [this.keys.counts, this.keys.taken], [jobId]);
  }

  /** The outcome recorded for a job by an earlier run; undefined when none was. */
  async outcome(jobId: string): Promise<JobOutcome | undefined> {
    const value = await this.#redis.call("HGET", this.keys.outcomes, jobId);
    return typeof value === "string" ? (value as JobOutcome) : undefined;
  }

  /** Records a job's outcome (and its counter) once. */
  async record(jobId: string, outcome: JobOutcome, counter?: Counter): Promise<void> {
    const { outcomes, counts, failures } = this.keys;
    await runScript(
      this.#redis,
      RECORD,
      [outcomes, counts, failures],
      [jobId, outcome, counter ?? "", ""],
    );
  }

  /** The crawl's error: its start page gave nothing. */
  async setError(error: { code: string; message: string }): Promise<void> {
    const { code, message } = error;
    await this.#redis.call("HSET", this.keys.meta, "error", JSON.stringify({ code, message }));
  }

  /** Records a failed fetch once; the start page's failure is the crawl's error. */
  async recordFailure(
    jobId: string,
    failure: CrawlFailure,
    crawlError?: { code: string; message: string },
  ): Promise<void> {
    if (crawlError) await this.setError(crawlError);
    const { outcomes, counts, failures } = this.keys;
    await runScript(
      this.#redis,
      RECORD,
      [outcomes, counts, failures],
      [jobId, "failed", "failed", JSON.stringify(failure)],
    );
  }

  /** Stores a page once under its URL. */
  async addPage(jobId: string, url: string, page: CrawlPage): Promise<boolean> {
    const { outcomes, counts, pages, paged } = this.keys;
    const reply = await runScript(
      this.#redis,
      PAGE,
      [outcomes, counts, pages, paged],
      [jobId, url, JSON.stringify(page)],
    );
    return Number(reply) === 1;
  }

  /** Adds warnings (deduplicated). */
  async warn(warnings: readonly CrawlWarning[]): Promise<void> {
    if (warnings.length === 0) return;
    await this.#redis.call(
      "SADD",
      this.keys.warnings,
      ...warnings.map((warning) => JSON.stringify(warning)),
    );
  }

  /** Raises the cancel flag: jobs not yet begun end without fetching. */
  async cancel(): Promise<void> {
    await this.#redis.call("SET", this.keys.cancel, "1", "EX", RUNNING_TTL_SECONDS);
  }

  async cancelled(): Promise<boolean> {
    return Number(await this.#redis.call("EXISTS", this.keys.cancel)) === 1;
  }

  /** The crawl's counters. */
  async counts(): Promise<Record<Counter, number>> {
    const values = (await this.#redis.call("HMGET", this.keys.counts, ...COUNTERS)) as (
      | string
      | null
    )[];
    return Object.fromEntries(COUNTERS.map((name, i) => [name, Number(values[i] ?? 0)])) as Record<
      Counter,
      number
    >;
  }

  /** Jobs still open: queued, or running. */
  async openJobs(): Promise<number> {
    return Number(await this.#redis.call("SCARD", this.keys.open));
  }

  /** The ids of the jobs still open, `max` at most. */
  async openIds(max: number): Promise<string[]> {
    const reply = (await this.#redis.call("SSCAN", this.keys.open, 0, "COUNT", max)) as [
      string,
      string[],
    ];
    return reply[1].slice(0, max);
  }

  /** Pages stored, from `from`, `count` at most. */
  async pages(from: number, count: number): Promise<CrawlPage[]> {
    if (count <= 0) return [];
    const items = (await this.#redis.call(
      "LRANGE",
      this.keys.pages,
      from,
      from + count - 1,
    )) as string[];
    return items.map((item) => JSON.parse(item) as CrawlPage);
  }

  async pageCount(): Promise<number> {
    return Number(await this.#redis.call("LLEN", this.keys.pages));
  }

  async failures(): Promise<CrawlFailure[]> {
    const items = (await this.#redis.call("LRANGE", this.keys.failures, 0, -1)) as string[];
    return items.map((item) => JSON.parse(item) as CrawlFailure);
  }

  async warnings(): Promise<CrawlWarning[]> {
    const items = (await this.#redis.call("SMEMBERS", this.keys.warnings)) as string[];
    return items.map((item) => JSON.parse(item) as CrawlWarning);
  }

  /** The claims of one job (see RedisClaims). */
  claimsFor(jobId: string): RedisClaims {
    return new RedisClaims(this.#redis, this.keys, jobId);
  }
}

/**
 * The pages a queued crawl returned, by name and by text hash, shared by every worker. The
 * claims are one job's: a name or hash that job holds already counts as its own, so the job's
 * second run (after its worker died) claims its page again instead of calling it a duplicate.
 */
export class RedisClaims implements PageClaims {
  readonly #redis: RedisClient;
  readonly #keys: Pick<CrawlKeys, "names" | "hashes">;
  readonly #jobId: string;

  constructor(redis: RedisClient, keys: Pick<CrawlKeys, "names" | "hashes">, jobId: string) {
    this.#redis = redis;
    this.#keys = keys;
    this.#jobId = jobId;
  }

  async claimed(url: string): Promise<boolean> {
    const owner = await this.#redis.call("HGET", this.#keys.names, url);
    return typeof owner === "string" && owner !== this.#jobId;
  }

  async claim(names: readonly string[], hash: string): Promise<boolean> {
    const { names: nameKey, hashes } = this.#keys;
    const reply = await runScript(
      this.#redis,
      CLAIM,
      [nameKey, hashes],
      [this.#jobId, hash, ...names],
    );
    return Number(reply) === 1;
  }
}
