/**
 * `GET /v1/info`: what a client needs to know to drive this service (the playground reads it to
 * build its form): the version, the enabled tools, the formats and render modes a fetch takes,
 * the instance's default render mode, whether a model answers prompts, and whether a token is
 * asked for. It names no secret, no address and no configured provider.
 */
import type { ToolId } from "../values.js";
import { OUTPUT_FORMATS, type OutputFormat, RENDER_MODES, type RenderMode } from "../values.js";
import { VERSION } from "../version.js";
import type { WebFetch } from "../webfetch/index.js";

/** The answer of `GET /v1/info`. */
export interface ServiceInfo {
  version: string;
  /** The enabled tools, by canonical name (each `/v1/<route>` needs its tool). */
  tools: ToolId[];
  /** What `extract_mode` takes. */
  formats: OutputFormat[];
  /** What `/v1/fetch`'s `render` takes. */
  renderModes: RenderMode[];
  /** The render mode of a call that names none. */
  render: RenderMode;
  /** Whether a model is configured: `prompt` is answered by it (else passages come back). */
  model: boolean;
  /** Whether the API routes need `Authorization: Bearer`. */
  auth: boolean;
}

/**
 * The service's description for `GET /v1/info`.
 *
 * @example
 * serviceInfo(web, ["web_fetch"], false); // { version, tools: ["web_fetch"], formats, ... }
 */
export function serviceInfo(web: WebFetch, tools: readonly ToolId[], auth: boolean): ServiceInfo {
  return {
    version: VERSION,
    tools: [...tools],
    formats: [...OUTPUT_FORMATS],
    renderModes: [...RENDER_MODES],
    render: web.options.render,
    model: web.options.llm !== undefined,
    auth,
  };
}
