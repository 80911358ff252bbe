/**
 * Token counting with a real tokenizer: gpt-tokenizer's o200k_base (the GPT-4o / GPT-5
 * encoding). Loaded on first use, so importing webfetch stays light. Special-token text
 * (`<|endoftext|>`) in a page is counted as the plain text it is, never refused.
 */

export type CountTokens = (text: string) => number;

let loading: Promise<CountTokens> | undefined;

/** The o200k token counter. */
export function tokenCounter(): Promise<CountTokens> {
  loading ??= import("gpt-tokenizer/encoding/o200k_base").then((m) => {
    const options = { disallowedSpecial: new Set<string>() };
    return (text: string) => (text === "" ? 0 : m.countTokens(text, options));
  });
  return loading;
}
