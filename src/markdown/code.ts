/**
 * Code blocks: the text of a `<pre>` as the browser shows it (line breaks from `<br>` and block
 * children, gutters of line numbers left out) and its language, from the class names that
 * highlighters write (Prism and highlight.js `language-x`/`lang-x`, GitHub `highlight-source-x`,
 * Sphinx `highlight-x`, SyntaxHighlighter `brush: x`) or `data-lang`.
 */

import {
  attr,
  type DomElement,
  type DomNode,
  isElement,
  isText,
  tagOf,
  walk,
} from "../extract/dom.js";

/** Class names that carry the language. */
const LANGUAGE_CLASS =
  /(?:^|\s)(?:lang(?:uage)?-|highlight-(?:source-)?|brush:\s*|sourceCode\s+)([A-Za-z0-9_+#.-]+)/i;
/** Class names that are not a language even though they match the pattern. */
const NOT_A_LANGUAGE = new Set(["none", "default", "plain", "nohighlight", "notranslate"]);
/** Line-number gutters inside code blocks. */
const GUTTER =
  /(?:^|\s)(?:linenos?|lineno|line-numbers?-rows|line-number|gutter|hljs-ln-numbers)(?:\s|$)/i;
/** Elements that end a line inside `<pre>` when highlighters wrap each line in one. */
const LINE_ELEMENTS = new Set(["div", "p", "li", "tr"]);
/** Characters browsers show as spaces in code. */
const NBSP = /\u00a0/g;

/**
 * The code of a `<pre>` (or `<xmp>`), with its line breaks; leading newline (which HTML drops)
 * and trailing whitespace removed.
 *
 * @example
 * preText(pre); // "const a = 1;\nconsole.log(a);"
 */
export function preText(pre: DomElement): string {
  const parts: string[] = [];
  const endsWithNewline = (): boolean => {
    const last = parts[parts.length - 1];
    return last === undefined || last.endsWith("\n");
  };
  walk(
    pre,
    (node: DomNode) => {
      if (isText(node)) {
        parts.push(node.data);
        return false;
      }
      if (!isElement(node)) return false;
      if (tagOf(node) === "br") {
        parts.push("\n");
        return false;
      }
      return !GUTTER.test(attr(node, "class"));
    },
    (el) => {
      if (LINE_ELEMENTS.has(tagOf(el)) && !endsWithNewline()) parts.push("\n");
    },
  );
  return parts.join("").replace(/\r\n?/g, "\n").replace(NBSP, " ").replace(/^\n/, "").trimEnd();
}

/**
 * The language of a code block, looked up on the `<pre>`, its first `<code>` child and its two
 * nearest ancestors; `undefined` when none is named.
 *
 * @example
 * codeLanguage(pre); // "python" for <pre><code class="language-python">
 */
export function codeLanguage(pre: DomElement): string | undefined {
  const places: DomElement[] = [pre];
  const code = pre.firstElementChild;
  if (code && tagOf(code) === "code") places.unshift(code);
  for (let a = pre.parentNode, i = 0; isElement(a) && i < 2; a = a.parentNode, i++) places.push(a);
  for (const el of places) {
    const data = attr(el, "data-lang") || attr(el, "data-language");
    if (data && !NOT_A_LANGUAGE.has(data.toLowerCase())) return sanitize(data);
    const match = LANGUAGE_CLASS.exec(attr(el, "class"));
    if (match?.[1] && !NOT_A_LANGUAGE.has(match[1].toLowerCase())) return sanitize(match[1]);
  }
  return undefined;
}

/** Keeps a language name to characters safe in a fence info string. */
function sanitize(language: string): string | undefined {
  const cleaned = language
    .replace(/[^A-Za-z0-9_+#.-]/g, "")
    .slice(0, 30)
    .toLowerCase();
  return cleaned === "" ? undefined : cleaned;
}

/** Longest run of `char` in `text`. */
export function longestRun(text: string, char: string): number {
  let longest = 0;
  let current = 0;
  for (const c of text) {
    current = c === char ? current + 1 : 0;
    if (current > longest) longest = current;
  }
  return longest;
}
