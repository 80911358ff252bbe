/** web_map: a site's URLs, one a line with its title, from its sitemaps and start page. */
import { z } from "zod";
import { LIMITS } from "../limits.js";
import { MAP_DEFAULTS, type MapOptions } from "../options.js";
import { SITEMAP_MODES } from "../values.js";
import { mapText } from "./format.js";
import { optionalQueryParam, pathsParam, urlParam } from "./params.js";
import { mapResultSchema } from "./schemas.js";
import { defineTool } from "./types.js";

export const webMapTool = defineTool({
  id: "web_map",
  texts: (t) => t.tools.web_map,
  input: ({ texts: t }) =>
    z.object({
      url: urlParam(t).describe(t.params.map_url),
      limit: z
        .number()
        .int()
        .min(1, `must be between 1 and ${LIMITS.mapMaxLinks}`)
        .max(LIMITS.mapMaxLinks, `must be between 1 and ${LIMITS.mapMaxLinks}`)
        .optional()
        .describe(t.params.map_limit(MAP_DEFAULTS.limit, LIMITS.mapMaxLinks)),
      search: optionalQueryParam(t.params.map_search),
      sitemap: z.enum(SITEMAP_MODES).optional().describe(t.params.sitemap),
      include_subdomains: z.boolean().optional().describe(t.params.include_subdomains),
      include_paths: pathsParam(
        t.params.include_paths(LIMITS.pathPatternsMax, LIMITS.pathPatternMaxLength),
      ),
      exclude_paths: pathsParam(t.params.exclude_paths),
    }),
  output: mapResultSchema,
  async handle(input, env) {
    const options: MapOptions = {
      // Without limit the library applies MAP_DEFAULTS.limit, the default described.
      ...(input.limit === undefined ? {} : { limit: input.limit }),
      ...(input.search === undefined ? {} : { search: input.search }),
      ...(input.sitemap ? { sitemap: input.sitemap } : {}),
      ...(input.include_subdomains === undefined
        ? {}
        : { includeSubdomains: input.include_subdomains }),
      ...(input.include_paths ? { includePaths: input.include_paths } : {}),
      ...(input.exclude_paths ? { excludePaths: input.exclude_paths } : {}),
      ...(env.settings.timeout === undefined ? {} : { timeout: env.settings.timeout }),
      ...(env.signal ? { signal: env.signal } : {}),
    };
    const result = await env.web.map(input.url, options);
    return {
      text: mapText(result, env, input.limit ?? MAP_DEFAULTS.limit),
      structured: { ...result },
    };
  },
});
