/**
 * The model layer: one AI SDK 6 language model from `llm` settings, for OpenAI (chat
 * completions), Anthropic (messages) or any OpenAI-compatible server (Ollama, vLLM, llama.cpp,
 * LM Studio). The SDK and the provider packages are loaded on first use only, so importing
 * webfetch without a model configured never loads them.
 */
import type { LanguageModel } from "ai";
import { WebFetchError } from "../errors.js";
import type { ResolvedLlm } from "../options.js";

/** A ready model and the settings it was made from. */
export interface ChatModel {
  /** `provider:model`, as results and cache keys name it. */
  id: string;
  /** The model's own name (`gpt-5-mini`), as results report it. */
  name: string;
  provider: ResolvedLlm["provider"];
  settings: ResolvedLlm;
  model: LanguageModel;
}

/**
 * Makes the language model. Its endpoint is operator-configured: it is called directly, not
 * through the address guard. A hosted provider without a key is AUTH_ERROR.
 */
export async function loadModel(settings: ResolvedLlm): Promise<ChatModel> {
  const { provider, model: name, baseUrl, apiKey } = settings;
  if (provider !== "openai-compatible" && !apiKey) {
    const variable = provider === "openai" ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY";
    throw new WebFetchError(
      "AUTH_ERROR",
      `Model provider ${provider} needs an API key: set llm.api_key or ${variable}`,
      { retryable: false, provider },
    );
  }
  const common = { ...(baseUrl ? { baseURL: baseUrl } : {}), ...(apiKey ? { apiKey } : {}) };
  let model: LanguageModel;
  if (provider === "openai") {
    const { createOpenAI } = await import("@ai-sdk/openai");
    // Chat completions, not the Responses API: the protocol every compatible server speaks too.
    model = createOpenAI(common).chat(name);
  } else if (provider === "anthropic") {
    const { createAnthropic } = await import("@ai-sdk/anthropic");
    model = createAnthropic(common).messages(name);
  } else {
    const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
    model = createOpenAICompatible({
      name: "openai-compatible",
      baseURL: baseUrl ?? "",
      ...(apiKey ? { apiKey } : {}),
      includeUsage: true,
    }).chatModel(name);
  }
  return { id: `${provider}:${name}`, name, provider, settings, model };
}
