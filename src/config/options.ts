/**
 * A configuration as library and tool options: the file's snake_case keys become the options'
 * camelCase ones. Apart from the reader (load.ts), so a run without a file maps `{}` without
 * loading the YAML parser and the schema.
 */
import { WebFetchError } from "../errors.js";
import type { LlmSettings, WebFetchOptions } from "../options.js";
import type { ToolOptions, ToolsOptions } from "../tools/options.js";
import { TOOL_IDS } from "../values.js";
import type { WebFetchConfig } from "./schema.js";

/** Library options from a config; keys of later issues are validated but not mapped here. */
export function optionsFromConfig(config: WebFetchConfig): WebFetchOptions {
  const f = config.fetch ?? {};
  const c = config.cache ?? {};
  const out: WebFetchOptions = {};
  if (config.locale) out.locale = config.locale;
  if (f.timeout_seconds !== undefined) out.timeout = Math.round(f.timeout_seconds * 1000);
  if (f.max_bytes !== undefined) out.maxBytes = f.max_bytes;
  if (f.max_redirects !== undefined) out.maxRedirects = f.max_redirects;
  if (f.redirects) out.redirects = f.redirects;
  if (f.user_agent) out.userAgent = f.user_agent;
  if (f.robots) out.robots = f.robots;
  if (f.network) out.network = f.network;
  if (f.allow_private_network !== undefined) out.allowPrivateNetwork = f.allow_private_network;
  if (f.allow_addresses) out.allowAddresses = f.allow_addresses;
  if (f.allowed_domains) out.allowedDomains = f.allowed_domains;
  if (f.blocked_domains) out.blockedDomains = f.blocked_domains;
  if (f.max_length !== undefined) out.maxLength = f.max_length;
  if (f.save_dir) out.saveDir = f.save_dir;
  if (f.render) out.render = f.render;
  if (f.browser_path) out.browserPath = f.browser_path;
  if (f.screenshot_max_bytes !== undefined) out.screenshotMaxBytes = f.screenshot_max_bytes;
  if (c.store) out.cacheStore = c.store;
  if (c.path) out.cachePath = c.path;
  if (c.url) out.cacheUrl = c.url;
  if (c.ttl_seconds !== undefined) out.cacheTtl = c.ttl_seconds;
  if (c.max_bytes !== undefined) out.cacheMaxBytes = c.max_bytes;
  if (config.search?.provider || config.search?.extract) {
    out.search = {
      ...(config.search.provider ? { provider: config.search.provider } : {}),
      ...(config.search.extract ? { extract: config.search.extract } : {}),
    };
  }
  const remote = config.tools?.web_fetch ?? {};
  // `${WEB_FETCH_API_ENDPOINT}` with the variable unset expands to "", which means no endpoint.
  if (remote.api_endpoint) {
    out.endpoint = remote.api_endpoint;
    if (remote.api_endpoint_kind) out.endpointKind = remote.api_endpoint_kind;
    if (remote.api_token) out.endpointToken = remote.api_token;
    if (remote.filter) out.endpointFilter = remote.filter;
    // `tools.web_fetch.timeout_seconds` is the endpoint's: every surface's fetches through it
    // get it.
    if (remote.timeout_seconds !== undefined)
      out.endpointTimeout = Math.round(remote.timeout_seconds * 1000);
  } else if (remote.api_endpoint_kind || remote.api_token || remote.filter) {
    throw configError(
      "tools.web_fetch.api_endpoint is required when api_endpoint_kind, api_token or filter is set",
    );
  }
  const llm = llmFromConfig(config.llm ?? {});
  if (llm) out.llm = llm;
  return out;
}

/**
 * The `llm` section as LlmSettings; no provider means no model, and a prompt is then answered
 * with the page's most relevant passages.
 */
function llmFromConfig(l: NonNullable<WebFetchConfig["llm"]>): LlmSettings | undefined {
  if (!l.provider) {
    const stray = Object.keys(l).find((k) => l[k as keyof typeof l] !== undefined);
    if (stray) throw configError(`llm.provider is required when llm.${stray} is set`);
    return undefined;
  }
  const ms = (s: number | undefined) => (s === undefined ? undefined : Math.round(s * 1000));
  const settings: LlmSettings = { provider: l.provider };
  const set = <K extends keyof LlmSettings>(key: K, value: LlmSettings[K] | undefined) => {
    if (value !== undefined) settings[key] = value;
  };
  set("model", l.model);
  set("baseUrl", l.base_url);
  set("apiKey", l.api_key);
  set("maxInputTokens", l.max_input_tokens);
  set("maxOutputTokens", l.max_output_tokens);
  set("timeout", ms(l.timeout_seconds));
  set("agentMaxSteps", l.agent_max_steps);
  set("agentMaxTokens", l.agent_max_tokens);
  set("agentTimeout", ms(l.agent_timeout_seconds));
  return settings;
}

/**
 * Tool-layer options from a config: `tools.prefix` and each `tools.<name>` section, with the
 * keys existing configurations already use (`timeout_seconds`, `max_content_length`). A tool
 * without a section keeps its defaults, so a config without `tools` enables every tool.
 */
export function toolsOptionsFromConfig(config: WebFetchConfig): ToolsOptions {
  const section = config.tools ?? {};
  const out: ToolsOptions = {};
  if (section.prefix) out.prefix = section.prefix;
  if (section.max_result_tokens !== undefined) out.maxResultTokens = section.max_result_tokens;
  for (const id of TOOL_IDS) {
    const tool = section[id];
    if (!tool) continue;
    // The endpoint is the instance's (optionsFromConfig): one fetch service for every tool.
    if (
      id !== "web_fetch" &&
      (tool.api_endpoint || tool.api_endpoint_kind || tool.api_token || tool.filter)
    ) {
      throw configError(
        `tools.${id}: api_endpoint, api_endpoint_kind, api_token and filter belong in tools.web_fetch ` +
          "(the endpoint serves every tool's fetches)",
      );
    }
    const options: ToolOptions = {};
    if (tool.enabled !== undefined) options.enabled = tool.enabled;
    if (tool.name) options.name = tool.name;
    if (tool.timeout_seconds !== undefined)
      options.timeout = Math.round(tool.timeout_seconds * 1000);
    if (tool.max_content_length !== undefined) options.maxLength = tool.max_content_length;
    out.tools = { ...out.tools, [id]: options };
  }
  return out;
}

/** A configuration that cannot be used: INVALID_INPUT, the caller's to fix. */
export function configError(message: string): WebFetchError {
  return new WebFetchError("INVALID_INPUT", message, { retryable: false });
}
