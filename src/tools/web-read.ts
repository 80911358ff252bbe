/** web_read: a window of a page fetched earlier, by id or URL, to read past where it was cut. */
import { z } from "zod";
import { WebFetchError } from "../errors.js";
import { isPageId, unknownPageId } from "../pages/kept.js";
import type { FetchResult } from "../result.js";
import { fitPage } from "./budget.js";
import { pageText } from "./format.js";
import { lengthParam, pageRefParams, startIndexParam } from "./params.js";
import { pageResultSchema } from "./schemas.js";
import type { Texts } from "./texts.js";
import { defineTool } from "./types.js";

export const webReadTool = defineTool({
  id: "web_read",
  texts: (t) => t.tools.web_read,
  input: ({ texts: t, settings }) =>
    z.object({
      ...pageRefParams(t),
      start_index: startIndexParam(t),
      length: lengthParam(t.params.length(settings.maxLength)),
    }),
  output: pageResultSchema,
  async handle(input, env) {
    const result = await env.web.read(pageRef(input, env.texts), {
      ...(input.start_index === undefined ? {} : { startIndex: input.start_index }),
      length: input.length ?? env.settings.maxLength,
      ...(env.signal ? { signal: env.signal } : {}),
    });
    return { text: pageText(result, env), structured: { ...result } };
  },
  // Over a host's token budget, the window is cut shorter and the rest linked.
  fit: (output, budget, env) =>
    fitPage(output.structured as unknown as FetchResult, budget, env.texts, (page) =>
      pageText(page, env),
    ),
});

/**
 * The page a read or grep is about: the id when given (it names exact content), else the URL.
 * An id is only ever an id: one this instance never gave is unknown, even if it reads as a URL.
 */
export function pageRef(
  input: { url?: string | undefined; id?: string | undefined },
  texts: Texts,
) {
  if (input.id !== undefined && !isPageId(input.id)) throw unknownPageId(input.id);
  const ref = input.id ?? input.url;
  if (ref === undefined) {
    throw new WebFetchError("INVALID_INPUT", texts.readNeedsRef, { retryable: false });
  }
  return ref;
}
