/**
 * Whether a CSS selector parses, apart from matching (selectors.ts): checking a call's options
 * needs the parser alone, not the matching engine.
 */
import { parse } from "css-what";
import { WebFetchError } from "../errors.js";

/**
 * Checks that `selector` parses; a selector that does not is INVALID_INPUT with the parser's
 * reason. `field` names the option in the caller's spelling.
 *
 * @example
 * checkSelector("article > p", "includeSelectors");
 */
export function checkSelector(selector: string, field: string): void {
  try {
    parse(selector);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new WebFetchError(
      "INVALID_INPUT",
      `${field}: ${JSON.stringify(selector)} is not a valid CSS selector (${reason})`,
      { retryable: false },
    );
  }
}
