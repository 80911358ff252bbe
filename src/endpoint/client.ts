/**
 * HTTP to the endpoints the operator configures: search providers, Tavily's extract API and the
 * fetch service of remote mode. They are trusted by configuration, so they do not pass the
 * address guard (every URL a model, a user request or a redirect supplies does), but they share
 * everything else with page fetches: one deadline per call, a cap on the body, no proxy, and
 * rate limits and gateway failures retried a bounded number of times, honouring Retry-After,
 * only while the deadline allows. (The model layer's SDK makes its own requests.)
 *
 * Its own folder, because search/ and remote mode both use it and neither may import the
 * other; not net/, because it stands on the transport's deadline, retries and failure mapping
 * in fetch/, which never imports it.
 */
import { WebFetchError } from "../errors.js";
import { mapRequestError } from "../fetch/failure.js";
import { withinDeadline } from "../fetch/http.js";
import { ENDPOINT_RETRY, parseRetryAfter, withRetries } from "../fetch/retry.js";
import type { Deadline } from "../net/deadline.js";
import { type Dispatcher, request } from "../net/undici.js";

/** A provider's answer is a page of results: anything bigger is not one. */
const MAX_BODY_BYTES = 5 * 1024 * 1024;

export interface ProviderRequest {
  method?: "GET" | "POST";
  url: URL;
  headers?: Record<string, string>;
  /** Sent as JSON, with its Content-Type. */
  json?: unknown;
  /** Sent as a form (application/x-www-form-urlencoded). */
  form?: URLSearchParams;
}

export interface ProviderResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON; a body that is not JSON is a PROVIDER_ERROR. */
  json<T>(): T;
}

/** Sends one request (retrying as above) and returns the final response, whatever its status. */
export type ProviderFetch = (request: ProviderRequest) => Promise<ProviderResponse>;

export interface ProviderHttpOptions {
  dispatcher: Dispatcher;
  userAgent: string;
  retries: number;
  deadline: Deadline;
  /** The provider's name, for messages. */
  name: string;
}

/** A fetch bound to one call of one provider. */
export function providerFetch(options: ProviderHttpOptions): ProviderFetch {
  return (req) =>
    withRetries({
      policy: ENDPOINT_RETRY,
      retries: options.retries,
      deadline: options.deadline,
      attempt: () => send(req, options),
      fail: (error) => providerError(error, req.url, options),
    });
}

async function send(req: ProviderRequest, options: ProviderHttpOptions): Promise<ProviderResponse> {
  const headers: Record<string, string> = {
    "user-agent": options.userAgent,
    accept: "application/json, text/html;q=0.9, */*;q=0.5",
    ...req.headers,
  };
  let body: string | undefined;
  if (req.json !== undefined) {
    body = JSON.stringify(req.json);
    headers["content-type"] = "application/json";
  } else if (req.form) {
    body = req.form.toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
  }
  const res = await request(req.url, {
    method: req.method ?? "GET",
    dispatcher: options.dispatcher,
    headers,
    ...(body === undefined ? {} : { body }),
    ...withinDeadline(options.deadline),
  });
  const text = await readText(res.body, options.name);
  return {
    status: res.statusCode,
    headers: res.headers,
    text,
    json<T>() {
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new WebFetchError(
          "PROVIDER_ERROR",
          `${options.name} answered with something that is not JSON (status ${res.statusCode})`,
        );
      }
    },
  };
}

/**
 * A provider that cannot be reached is the provider's failure, named as such. So is a provider
 * that breaks HTTP, or a request its settings (a key with a line break) cannot make: the caller
 * can do nothing else about either.
 */
function providerError(error: unknown, url: URL, options: ProviderHttpOptions): Error {
  const mapped = mapRequestError(error, options.deadline);
  if (
    mapped instanceof WebFetchError &&
    (mapped.code === "CONNECT_FAILED" ||
      mapped.code === "PROTOCOL_ERROR" ||
      mapped.code === "INVALID_INPUT")
  ) {
    return new WebFetchError(
      "PROVIDER_ERROR",
      `Could not reach ${options.name} at ${url.origin}: ${mapped.message.replace(/^Failed to connect: /, "")}`,
      { cause: error, retryable: mapped.code === "CONNECT_FAILED" },
    );
  }
  return mapped;
}

async function readText(body: AsyncIterable<Buffer>, name: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      throw new WebFetchError("PROVIDER_ERROR", `${name} answered with more than 5 MiB`, {
        retryable: false,
      });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Throws the error a non-2xx status means: 401/403 `AUTH_ERROR`, 429 `RATE_LIMITED` (with
 * when to try again), anything else `PROVIDER_ERROR`. `detail` is the provider's own words.
 */
export function expectOk(name: string, res: ProviderResponse, detail?: string): void {
  if (res.status >= 200 && res.status < 300) return;
  const said = detail ? `: ${detail}` : "";
  if (res.status === 401 || res.status === 403) {
    throw new WebFetchError(
      "AUTH_ERROR",
      `${name} refused the credentials (${res.status})${said}`,
      { status: res.status, retryable: false },
    );
  }
  if (res.status === 429) {
    throw rateLimited(name, res, said);
  }
  throw new WebFetchError("PROVIDER_ERROR", `${name} answered ${res.status}${said}`, {
    status: res.status,
    retryable: res.status >= 500,
  });
}

/** The RATE_LIMITED error after retries ran out, saying when the provider allows the next try. */
export function rateLimited(name: string, res: ProviderResponse, said = ""): WebFetchError {
  const after = parseRetryAfter(res.headers["retry-after"]);
  const when = after === undefined ? "" : `; retry after ${Math.ceil(after / 1000)}s`;
  return new WebFetchError(
    "RATE_LIMITED",
    `${name} rate limit reached (${res.status})${said}${when}`,
    {
      status: res.status,
    },
  );
}

/** A short piece of an error body, for the message: no provider should flood a model's context. */
export function bodyDetail(text: string, max = 200): string | undefined {
  const flat = text.replace(/\s+/g, " ").trim();
  if (!flat) return undefined;
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
