/**
 * Remote mode: a page is had from a fetch service instead of the network, so fetching can run in
 * an isolated process, container or host: either a webfetch service (`POST {endpoint}/v1/fetch`,
 * the result object and `{error: {code, message}}`) or any Crawl4AI-compatible
 * `POST {endpoint}/md` (`{url, f, q, c}` in, `{url, markdown, success}` out). The endpoint is
 * configured by the operator, so it does not pass the address guard; the service applies the
 * policy to the target, which this client never resolves or contacts.
 */
import type { Dispatcher } from "undici";
import type { CachedPage } from "../cache/store.js";
import { ERROR_CODES, type ErrorCode, isWebFetchError, WebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";
import type { Deadline } from "../net/deadline.js";
import { wholeContent } from "../pages/whole.js";
import type { EndpointFilter, EndpointKind, ExtractMode, OutputFormat } from "../values.js";
import { bodyDetail, type ProviderResponse, providerFetch } from "./client.js";

/** The service's own codes that have a library equivalent; any other unknown one is HTTP_ERROR. */
const SERVICE_CODES: Readonly<Record<string, ErrorCode>> = {
  UNAUTHORIZED: "AUTH_ERROR",
};

export interface RemoteEndpoint {
  /** Base URL, no trailing slash. */
  url: string;
  kind: EndpointKind;
  /** Sent as `Authorization: Bearer` (a service with WEBFETCH_API_TOKEN set). */
  token?: string | undefined;
  /** The `/md` filter asked for when the call wants the main content. */
  filter: EndpointFilter;
}

export interface RemoteCall {
  format: OutputFormat;
  extract: ExtractMode;
}

export interface RemoteContext {
  dispatcher: Dispatcher;
  userAgent: string;
  deadline: Deadline;
}

/** The page as the service converted it, in the cache's shape. Throws WebFetchError. */
export async function fetchRemote(
  endpoint: RemoteEndpoint,
  url: string,
  call: RemoteCall,
  context: RemoteContext,
): Promise<Omit<CachedPage, "url">> {
  try {
    // /v1/fetch has no parameter for the whole page; Crawl4AI's `raw` filter is that. The raw
    // format is the whole document whatever the extract mode, and only /v1/fetch gives it.
    if (endpoint.kind === "webfetch" && (call.extract === "main" || call.format === "raw")) {
      return await viaV1(endpoint, url, call, context);
    }
    return await viaMd(endpoint, url, call, context);
  } catch (error) {
    throw endpointError(endpoint, error);
  }
}

/** A webfetch service: the result object, window by window until the content is whole. */
async function viaV1(
  endpoint: RemoteEndpoint,
  url: string,
  call: RemoteCall,
  context: RemoteContext,
): Promise<Omit<CachedPage, "url">> {
  const send = sender(endpoint, context);
  const window = async (from?: number): Promise<RemoteResult> => {
    const res = await send("/v1/fetch", {
      url,
      extract_mode: call.format,
      max_length: LIMITS.toolMaxLength,
      ...(from === undefined ? {} : { start_index: from }),
    });
    const body = parseJson<RemoteResult & ServiceFailure>(res);
    if (res.status < 200 || res.status >= 300 || body.error) throw serviceError(res, body);
    return body;
  };
  const page = await window();
  const content = await wholeContent(page, (_cut, from) => window(from));
  return {
    finalUrl: page.finalUrl,
    redirects: page.redirects ?? [],
    status: page.status,
    contentType: page.contentType,
    ...pick(page, ["charset", "title", "description", "author", "siteName", "publishedAt"]),
    ...pick(page, ["lang", "canonicalUrl"]),
    content,
    fetchedAt: page.fetchedAt ?? new Date().toISOString(),
  };
}

/** Crawl4AI's contract, as agents' web_fetch tools call it: no metadata but the URL comes back. */
async function viaMd(
  endpoint: RemoteEndpoint,
  url: string,
  call: RemoteCall,
  context: RemoteContext,
): Promise<Omit<CachedPage, "url">> {
  // `c: "0"` fetches fresh: this client's own cache decides about reuse. The whole page is `raw`,
  // whatever filter is configured for the main content.
  const res = await sender(endpoint, context)("/md", {
    url,
    f: call.extract === "full" ? "raw" : endpoint.filter,
    q: null,
    c: "0",
  });
  const body = parseJson<{ url?: string; markdown?: unknown; success?: unknown } & ServiceFailure>(
    res,
  );
  const typed = typeof body.error === "object" && body.error !== null;
  if (res.status < 200 || res.status >= 300 || typed) throw serviceError(res, body);
  if (body.success !== true || typeof body.markdown !== "string") {
    const reason =
      typeof body.error === "string" && body.error ? `: ${bodyDetail(body.error)}` : "";
    throw new WebFetchError("HTTP_ERROR", `The fetch endpoint could not fetch ${url}${reason}`, {
      retryable: false,
      url,
    });
  }
  return {
    finalUrl: typeof body.url === "string" && body.url ? body.url : url,
    redirects: [],
    status: 200,
    contentType: "text/markdown",
    content: body.markdown,
    fetchedAt: new Date().toISOString(),
  };
}

/** The fields of a service's FetchResult this client reads. */
interface RemoteResult {
  finalUrl: string;
  redirects?: CachedPage["redirects"];
  status: number;
  contentType: string;
  content: string;
  truncated: boolean;
  startIndex?: number;
  nextStartIndex?: number;
  fetchedAt?: string;
  [key: string]: unknown;
}

function sender(endpoint: RemoteEndpoint, context: RemoteContext) {
  const fetchJson = providerFetch({
    dispatcher: context.dispatcher,
    userAgent: context.userAgent,
    // The service retries the target itself; a 502 from it is an answer, not a hiccup.
    retries: 0,
    deadline: context.deadline,
    name: "The fetch endpoint",
  });
  return (path: string, json: unknown) =>
    fetchJson({
      method: "POST",
      url: new URL(`${endpoint.url}${path}`),
      json,
      ...(endpoint.token ? { headers: { authorization: `Bearer ${endpoint.token}` } } : {}),
    });
}

function parseJson<T>(res: ProviderResponse): T {
  try {
    const value = JSON.parse(res.text) as unknown;
    if (value && typeof value === "object") return value as T;
  } catch {
    // Reported below with the status and a piece of the body.
  }
  throw new WebFetchError(
    "HTTP_ERROR",
    `The fetch endpoint answered ${res.status} with something that is not a JSON object` +
      (bodyDetail(res.text, 120) ? `: ${bodyDetail(res.text, 120)}` : ""),
    { status: res.status, retryable: res.status >= 500 },
  );
}

/**
 * How a service says it failed: webfetch's `{error: {code, message}}`, Crawl4AI's (FastAPI's)
 * `{detail: "..."}`, or an `error` string.
 */
interface ServiceFailure {
  error?: { code?: string; message?: string } | string;
  detail?: unknown;
}

/**
 * A service's `{error: {code, message}}` keeps its code; a bare failure status is HTTP_ERROR,
 * with the reason the service gave, if any.
 */
function serviceError(res: ProviderResponse, body: ServiceFailure): WebFetchError {
  const error = typeof body.error === "object" && body.error ? body.error : undefined;
  const said = typeof error?.code === "string" ? error.code : "";
  const code: ErrorCode = (ERROR_CODES as readonly string[]).includes(said)
    ? (said as ErrorCode)
    : (SERVICE_CODES[said] ?? "HTTP_ERROR");
  const reason = [body.error, body.detail].find((v): v is string => typeof v === "string" && !!v);
  const message =
    typeof error?.message === "string" && error.message
      ? error.message
      : `The fetch endpoint answered ${res.status}${reason ? `: ${bodyDetail(reason)}` : ""}`;
  return new WebFetchError(code, message, {
    ...(code === "HTTP_ERROR" ? { status: res.status } : {}),
  });
}

/**
 * Failures of the endpoint itself are the page's failure to the caller: HTTP_ERROR (the page
 * could not be fetched, whatever broke on the way), TIMEOUT stays TIMEOUT. Errors the service
 * mapped keep their code.
 */
function endpointError(endpoint: RemoteEndpoint, error: unknown): unknown {
  if (!isWebFetchError(error)) return error;
  if (error.code !== "PROVIDER_ERROR" && error.code !== "CONNECT_FAILED") return error;
  return new WebFetchError(
    "HTTP_ERROR",
    `The fetch endpoint ${endpoint.url} failed: ${error.message}`,
    { cause: error, retryable: error.retryable },
  );
}

function pick<K extends string>(
  source: Record<string, unknown>,
  keys: readonly K[],
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = source[key];
    if (typeof value === "string" && value) out[key] = value;
  }
  return out;
}
