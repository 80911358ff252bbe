/**
 * The contract between the shared DOM walk (render.ts) and an output form: Markdown
 * (serialize.ts) or plain text (text.ts). The walk renders content; a dialect only wraps it.
 */

import type { EscapeContext } from "./escape.js";
import type { TableModel } from "./table.js";

/** The syntax of an output form; the renderer supplies content already rendered. */
export interface Dialect {
  /** Escapes collapsed text for the form; `context` is read during the call only. */
  escape(text: string, context: EscapeContext): string;
  /** What a `<br>` becomes inside a paragraph. */
  readonly hardBreak: string;
  heading(level: number, content: string): string;
  emphasis(kind: EmphasisKind, content: string): string;
  inlineCode(code: string): string;
  /** A resolved URL as the form holds it in a link or an image (what `link` and `image` get). */
  url(resolved: string): string;
  link(content: string, href: string): string;
  /** `""` to leave images out. */
  image(alt: string, src: string): string;
  codeBlock(code: string, language: string | undefined): string;
  /**
   * What starts every line of a quote (`"> "`), blank lines getting it without its trailing
   * spaces; `""` to leave quotes unmarked.
   */
  readonly quotePrefix: string;
  /**
   * A list item; `marker` is `"- "` or `"3. "`, and `content`'s lines after the first are
   * indented by `itemIndent(marker)` already.
   */
  listItem(content: string, marker: string): string;
  /** How far the lines of a list item after its first step in. */
  itemIndent(marker: string): number;
  term(content: string): string;
  /** A definition, its lines after the first indented by `definitionIndent` already. */
  definition(content: string): string;
  readonly definitionIndent: number;
  /** A data table (layout tables never reach the dialect). */
  table(table: TableModel): string;
  /** A thematic break (`<hr>`), `""` for none. */
  readonly rule: string;
}

/** Emphasis elements the dialect marks. */
export type EmphasisKind = "strong" | "em" | "del";

/** Options of a render. */
export interface RenderOptions {
  /** Absolute URL that relative links and images resolve against; left relative without it. */
  baseUrl?: string;
}
