/**
 * AI SDK failures as WebFetchErrors: 401/403 → AUTH_ERROR, 429 → RATE_LIMITED,
 * anything else the provider says → PROVIDER_ERROR, our own deadline → TIMEOUT. The SDK's error
 * classes are recognised by shape, not `instanceof`, so this module does not load the SDK.
 */
import { isWebFetchError, WebFetchError } from "../errors.js";

/** What an AI SDK APICallError (or a RetryError wrapping one) carries. */
interface ApiFailure {
  name?: string;
  message?: string;
  statusCode?: number;
  lastError?: unknown;
  responseBody?: string;
}

/** The WebFetchError for a failed model call; `timedOut` says our deadline fired. */
export function modelError(error: unknown, provider: string, timedOut: boolean): WebFetchError {
  if (isWebFetchError(error)) return error;
  if (timedOut) {
    return new WebFetchError("TIMEOUT", `The model (${provider}) did not answer in time`, {
      cause: error,
      provider,
    });
  }
  const failure = innermost(error);
  const status = failure.statusCode;
  const detail = (failure.message ?? String(error)).slice(0, 300);
  const options = { cause: error, provider, ...(status === undefined ? {} : { status }) };
  if (status === 401 || status === 403) {
    return new WebFetchError(
      "AUTH_ERROR",
      `Model provider ${provider} refused the API key (${status})`,
      {
        ...options,
        retryable: false,
      },
    );
  }
  if (status === 429) {
    return new WebFetchError("RATE_LIMITED", `Model provider ${provider} is rate limiting (429)`, {
      ...options,
    });
  }
  return new WebFetchError(
    "PROVIDER_ERROR",
    `Model provider ${provider} failed${status ? ` (${status})` : ""}: ${detail}`,
    { ...options, retryable: status === undefined || status >= 500 },
  );
}

/** A RetryError's last attempt, else the error itself. */
function innermost(error: unknown): ApiFailure {
  let current = (error ?? {}) as ApiFailure;
  while (current.lastError && typeof current.lastError === "object") {
    current = current.lastError as ApiFailure;
  }
  return current;
}
