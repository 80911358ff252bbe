/**
 * Which provider answers: the one named (flag or config), else the first of tavily,
 * brave, searxng whose variable is set, else duckduckgo, which needs none. A named provider
 * without its key or URL is a clear error naming the variable, raised when a search is made,
 * so fetching keeps working with an incomplete search setup.
 */
import { WebFetchError } from "../errors.js";
import type { SearchSettings } from "../options.js";
import { createBraveProvider } from "./brave.js";
import { createDuckDuckGoProvider } from "./duckduckgo.js";
import { createSearxngProvider } from "./searxng.js";
import { createTavilyProvider } from "./tavily.js";
import { SEARCH_PROVIDER_IDS, type SearchProvider, type SearchProviderId } from "./types.js";

/** Settings with every key and address read from the environment where not given. */
interface Keys {
  tavilyApiKey?: string | undefined;
  tavilyBaseUrl?: string | undefined;
  braveApiKey?: string | undefined;
  braveBaseUrl?: string | undefined;
  searxngUrl?: string | undefined;
  duckduckgoBaseUrl?: string | undefined;
}

/** Tavily's key and address for these settings. Throws INVALID_INPUT without a key. */
export function tavilySettings(settings: SearchSettings = {}): {
  apiKey: string;
  baseUrl?: string;
} {
  const keys = readKeys(settings);
  if (!keys.tavilyApiKey) throw missing("Tavily extract needs an API key: set TAVILY_API_KEY");
  return { apiKey: keys.tavilyApiKey, ...base("TAVILY_BASE_URL", keys.tavilyBaseUrl) };
}

/** The provider for these settings. Throws INVALID_INPUT naming a missing key or URL. */
export function chooseProvider(settings: SearchSettings = {}): SearchProvider {
  if (settings.provider !== undefined && typeof settings.provider !== "string") {
    return settings.provider;
  }
  const keys = readKeys(settings);
  const id = settings.provider ?? defaultProvider(keys);
  if (!SEARCH_PROVIDER_IDS.includes(id)) {
    throw missing(
      `Unknown search provider ${JSON.stringify(id)}: use ${SEARCH_PROVIDER_IDS.join(", ")}`,
    );
  }
  switch (id) {
    case "tavily":
      if (!keys.tavilyApiKey)
        throw missing("Search provider tavily needs an API key: set TAVILY_API_KEY");
      return createTavilyProvider({
        apiKey: keys.tavilyApiKey,
        ...base("TAVILY_BASE_URL", keys.tavilyBaseUrl),
      });
    case "brave":
      if (!keys.braveApiKey)
        throw missing("Search provider brave needs an API key: set BRAVE_API_KEY");
      return createBraveProvider({
        apiKey: keys.braveApiKey,
        ...base("BRAVE_BASE_URL", keys.braveBaseUrl),
      });
    case "searxng":
      if (!keys.searxngUrl) {
        throw missing("Search provider searxng needs the address of an instance: set SEARXNG_URL");
      }
      return createSearxngProvider({ baseUrl: checkUrl("SEARXNG_URL", keys.searxngUrl) });
    case "duckduckgo":
      return createDuckDuckGoProvider(base("DUCKDUCKGO_BASE_URL", keys.duckduckgoBaseUrl));
  }
}

/** The default: the first of tavily, brave, searxng whose variable is set, else duckduckgo. */
function defaultProvider(keys: Keys): SearchProviderId {
  if (keys.tavilyApiKey) return "tavily";
  if (keys.braveApiKey) return "brave";
  if (keys.searxngUrl) return "searxng";
  return "duckduckgo";
}

function readKeys(settings: SearchSettings): Keys {
  const env = settings.env ?? process.env;
  // An empty variable (`${TAVILY_API_KEY:-}` in a config) counts as unset.
  const pick = (own: string | undefined, name: string) => own || env[name] || undefined;
  return {
    tavilyApiKey: pick(settings.tavilyApiKey, "TAVILY_API_KEY"),
    tavilyBaseUrl: pick(settings.tavilyBaseUrl, "TAVILY_BASE_URL"),
    braveApiKey: pick(settings.braveApiKey, "BRAVE_API_KEY"),
    braveBaseUrl: pick(settings.braveBaseUrl, "BRAVE_BASE_URL"),
    searxngUrl: pick(settings.searxngUrl, "SEARXNG_URL"),
    duckduckgoBaseUrl: pick(settings.duckduckgoBaseUrl, "DUCKDUCKGO_BASE_URL"),
  };
}

function base(name: string, url: string | undefined): { baseUrl?: string } {
  return url ? { baseUrl: checkUrl(name, url) } : {};
}

function checkUrl(name: string, value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return value;
  } catch {
    // Reported below.
  }
  throw missing(`${name} must be an http or https URL, got ${JSON.stringify(value)}`);
}

function missing(message: string): WebFetchError {
  return new WebFetchError("INVALID_INPUT", message, { retryable: false });
}
