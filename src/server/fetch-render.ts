/**
 * `render` on `POST /v1/fetch`: the service's own field beside web_fetch's input, so a client
 * (the playground, a script) chooses JavaScript rendering per call, as the library's `render`
 * option and the CLI's `--render` do. web_fetch itself takes no `render`: an agent has no use
 * for choosing the engine, and the instance's default stays the rule for it.
 */
import { WebFetchError } from "../errors.js";
import { RENDER_MODES, type RenderMode } from "../values.js";

/**
 * The fetch option a `/v1/fetch` body's `render` asks for: none when it names none; a value that
 * is not a mode is INVALID_INPUT naming the modes.
 *
 * @example
 * renderOption({ url, render: "always" }); // { render: "always" }
 */
export function renderOption(body: object): { render?: RenderMode } {
  if (!("render" in body) || body.render === undefined) return {};
  const { render } = body;
  if (!(RENDER_MODES as readonly unknown[]).includes(render)) {
    throw new WebFetchError("INVALID_INPUT", `render: must be one of ${RENDER_MODES.join(", ")}`, {
      retryable: false,
    });
  }
  return { render: render as RenderMode };
}
