/**
 * The walk shared by the Markdown and plain-text forms: one iterative pass over the DOM with an
 * explicit stack of frames. Elements that transform their content (headings, emphasis, links,
 * quotes, list items, tables) open a frame that collects it; plain blocks only ask for blank
 * lines around them. Whitespace collapses as a browser would (outside `<pre>`), and the
 * `Dialect` decides the syntax. No recursion, so any depth costs only time.
 */

import {
  attr,
  type DomElement,
  type DomNode,
  isElement,
  isText,
  tagOf,
  textOf,
  WHITESPACE_RUN,
  walk,
} from "../extract/dom.js";
import { resolveUrl, schemeAndAuthority } from "../extract/url.js";
import { codeLanguage, preText } from "./code.js";
import type { Dialect, EmphasisKind, RenderOptions } from "./dialect.js";
import type { EscapeContext } from "./escape.js";
import { imageSource } from "./image.js";
import { Out, startsWithNewline } from "./out.js";
import { isWidget, seamBefore, startsWordAtCase } from "./seams.js";
import { isLayoutTable, MAX_COLSPAN, type TableModel, type TableRow } from "./table.js";
import {
  BLOCK_TAGS,
  CODE_TAGS,
  EMPHASIS_TAGS,
  HEADING_LEVELS,
  LIST_TAGS,
  PRE_TAGS,
  SKIPPED_TAGS,
} from "./tags.js";

/** Quote, list and definition nesting past which content is no longer indented or prefixed. */
export const MAX_PREFIX_NESTING = 16;

/**
 * Collapsible whitespace (NBSP too, which webfetch normalizes to a space) that collapsing to one
 * space changes: a run of two or more, or one character that is not a space. A lone space is
 * left unmatched, so a text of millions of words is one scan, not a replacement per word.
 */
const COLLAPSIBLE = /[ \t\n\r\f\u00a0]{2,}|[\t\n\r\f\u00a0]/g;
/** Invisible characters dropped from text: soft hyphen, zero-width space, word joiner, BOM. */
const INVISIBLE = /[\u00ad\u200b\u2060\ufeff]/g;
/**
 * A character INVISIBLE or COLLAPSIBLE acts on, or two spaces: a text without one is kept as
 * it is, in one scan instead of two replacements (most texts, a table cell's or a word's).
 */
const UNCLEAN = /[\u00ad\u200b\u2060\ufeff\t\n\r\f\u00a0]| {2}/;
/**
 * Text of nothing but zero-width (non-)joiners and spaces: at the start of a block, where there
 * is nothing to join, an empty paragraph Webflow fills with `&zwj;`. Elsewhere it stays: between
 * two elements it still joins, or keeps apart, what they hold (👩 and 💻 in two spans are one
 * emoji; Persian words keep their non-joiner).
 */
const LONE_JOINERS = /^[ \u200c\u200d]+$/;
/** Content of a permalink anchor (`<a href="#x">¶</a>`), dropped with its link. */
const PERMALINK_TEXT = /^[\s\u200b#¶§🔗]*$/u;
/** A line that starts with block syntax, which a link must go after. */
const BLOCK_PREFIX = /^(#{1,6} |> |[-+*] |\d{1,9}\. )?(.*)$/s;
/** A line that is only an image. */
const IMAGE_ONLY = /^!\[[^\]]*\]\([^)]*\)$/;

/** What a frame collects for. */
type FrameKind =
  | "root"
  | "heading"
  | "emphasis"
  | "link"
  | "quote"
  | "list"
  | "item"
  | "term"
  | "definition"
  | "table"
  | "row"
  | "cell";

/** Frames whose content starts lines (so line-start escaping applies). */
const LINE_FRAMES = new Set<FrameKind>(["root", "quote", "list", "item", "table", "row", "cell"]);
/** Frames that wrap inline content; a space before their content belongs outside them. */
const INLINE_FRAMES = new Set<FrameKind>(["emphasis", "link"]);
/** Frames that indent or prefix their lines. */
const PREFIX_FRAMES = new Set<FrameKind>(["quote", "item", "definition"]);

/**
 * An element being rendered and the output it collects. Every field is present in every frame
 * (one object shape), and a closed frame is reused for the next one opened: a table's cells and
 * rows each opened a frame and an output that lived only until the cell closed, a third of what
 * rendering a table allocated. A field added here is unset in `newFrame` and in `release`.
 */
interface Frame {
  kind: FrameKind;
  el: DomElement | null;
  out: Out;
  level: number | undefined;
  emphasis: EmphasisKind | undefined;
  href: string | undefined;
  /** Lists: next item number, or `undefined` for bullets. */
  next: number | undefined;
  /** List items: `"- "` or `"3. "`. */
  marker: string | undefined;
  table: TableModel | undefined;
  /** Tables: rows are inside `<thead>`. */
  inHead: boolean | undefined;
  row: TableRow | undefined;
}

/** A frame of `kind` for `el` collecting into `out`, its other fields unset. */
function newFrame(kind: FrameKind, el: DomElement | null, out: Out): Frame {
  return {
    kind,
    el,
    out,
    level: undefined,
    emphasis: undefined,
    href: undefined,
    next: undefined,
    marker: undefined,
    table: undefined,
    inHead: undefined,
    row: undefined,
  };
}

/**
 * Renders the subtree at `root` (including `root` itself) in `dialect`.
 *
 * @example
 * render(article, markdownDialect, { baseUrl: "https://example.com/post" });
 */
export function render(root: DomElement, dialect: Dialect, options: RenderOptions = {}): string {
  const renderer = new Renderer(dialect, options.baseUrl);
  return renderer.run(root);
}

/** One render's state. */
class Renderer {
  private readonly frames: Frame[];
  /** Closed frames, to be opened again. */
  private readonly spare: Frame[] = [];
  /** Collapsed whitespace seen since the last content, written before the next. */
  private pendingSpace = false;
  /** A `case` seam before the next text (see `seamBefore`). */
  private caseSeam = false;
  /** The last character of text written, before any Markdown syntax closing it (`*`, `)`). */
  private lastTextChar = "";
  /**
   * Adjacent text nodes not yet written, joined as they come: a list emptied at every element
   * got a new backing store for each text, a quarter of what rendering a table allocated.
   */
  private textRun = "";
  private linkDepth = 0;
  private prefixDepth = 0;
  private readonly emphasisDepth: Record<EmphasisKind, number> = { strong: 0, em: 0, del: 0 };
  /**
   * The dialect writes the base URL's scheme and authority as they are (or there is no base, and
   * a path from the root stays as it is; a base other than http(s) is not looked into): see
   * linkTarget.
   */
  private readonly keepsBaseStart: boolean;
  /** Where the text being escaped lands: one object, set for each text (escape keeps none). */
  private readonly escapeContext: EscapeContext = { lineStart: false, inLink: false };

  constructor(
    private readonly dialect: Dialect,
    private readonly baseUrl: string | undefined,
  ) {
    this.frames = [newFrame("root", null, new Out(dialect.hardBreak, "", "", true))];
    const start = baseUrl === undefined ? "" : schemeAndAuthority(baseUrl);
    this.keepsBaseStart = start !== undefined && dialect.url(start) === start;
  }

  run(root: DomElement): string {
    const enter = (node: DomNode): boolean => this.enter(node);
    const exit = (el: DomElement): void => this.exit(el);
    if (enter(root)) {
      walk(root, enter, exit);
      exit(root);
    }
    this.flushText();
    return this.frames[0]!.out.toString().trim();
  }

  private get top(): Frame {
    return this.frames[this.frames.length - 1]!;
  }

  // ---- walking ----------------------------------------------------------------------------

  /** Handles a node on the way down; returns whether to visit its children. */
  private enter(node: DomNode): boolean {
    if (isText(node)) {
      // The parser splits text at entities ("a ", "<", "b"): join runs before escaping them.
      this.textRun += node.data;
      return false;
    }
    if (!isElement(node)) return false;
    this.flushText();
    const el = node;
    const tag = tagOf(el);
    if (SKIPPED_TAGS.has(tag)) return false;
    const seam = seamBefore(el, tag);
    if (seam === "space") this.pendingSpace = true;
    else if (seam === "case") this.caseSeam = true;

    switch (tag) {
      case "br":
        this.top.out.lineBreak();
        this.pendingSpace = false;
        return false;
      case "hr":
        this.addBlock(this.dialect.rule);
        return false;
      case "img":
        this.image(el);
        return false;
      case "a":
        return this.enterLink(el);
      case "thead":
        if (this.top.kind === "table") this.top.inHead = true;
        return true;
      case "q":
        this.placeSpace().out.inline('"');
        return true;
    }
    if (PRE_TAGS.has(tag)) {
      const code = preText(el);
      if (code.trim() !== "") this.addBlock(this.dialect.codeBlock(code, codeLanguage(el)));
      return false;
    }
    if (CODE_TAGS.has(tag)) {
      this.inlineCode(el);
      return false;
    }
    const emphasis = EMPHASIS_TAGS.get(tag);
    if (emphasis !== undefined) {
      if (this.emphasisDepth[emphasis] > 0) return true;
      this.emphasisDepth[emphasis]++;
      this.push("emphasis", el).emphasis = emphasis;
      return true;
    }
    const level = HEADING_LEVELS.get(tag);
    if (level !== undefined && this.top.kind !== "heading") {
      this.boundary();
      this.push("heading", el).level = level;
      return true;
    }
    if (this.enterStructure(el, tag)) return true;
    if (BLOCK_TAGS.has(tag)) this.boundary();
    return true;
  }

  /** Opens frames for quotes, lists, definitions and tables; false when `el` is none of them. */
  private enterStructure(el: DomElement, tag: string): boolean {
    const nested = this.prefixDepth >= MAX_PREFIX_NESTING;
    if (tag === "blockquote" && !nested) {
      this.boundary();
      // The quote's lines are marked as they are written; its first line is marked as it
      // closes, and the enclosing output indents that one.
      const { indent, blankIndent } = this.top.out;
      const marker = this.dialect.quotePrefix;
      const blank = marker === "" ? blankIndent : indent + marker.trimEnd();
      this.push("quote", el, indent + marker, blank);
      return true;
    }
    if (LIST_TAGS.has(tag) && !nested) {
      // A list inside an item follows the item's text on the next line (a tight list).
      this.pendingSpace = false;
      this.top.out.separate(this.top.kind === "item" ? 1 : 2);
      const frame = this.push("list", el, this.top.out.indent, this.top.out.blankIndent);
      if (tag === "ol") {
        const start = Number.parseInt(attr(el, "start"), 10);
        frame.next = Number.isFinite(start) ? start : 1;
      }
      return true;
    }
    if (tag === "li" && !nested) {
      this.pendingSpace = false;
      const marker = this.nextMarker(el);
      const { indent, blankIndent } = this.top.out;
      const itemIndent = indent + " ".repeat(this.dialect.itemIndent(marker));
      this.push("item", el, itemIndent, blankIndent).marker = marker;
      return true;
    }
    if (tag === "dt" && !nested) {
      this.pendingSpace = false;
      this.push("term", el);
      return true;
    }
    if (tag === "dd" && !nested) {
      this.pendingSpace = false;
      const { indent, blankIndent } = this.top.out;
      const definitionIndent = indent + " ".repeat(this.dialect.definitionIndent);
      this.push("definition", el, definitionIndent, blankIndent);
      return true;
    }
    if (tag === "table") {
      this.boundary();
      const enclosing = this.findFrame("table");
      if (enclosing?.table) enclosing.table.hasNestedTable = true;
      const role = attr(el, "role").toLowerCase();
      this.push("table", el).table = {
        rows: [],
        hasNestedTable: false,
        presentational: role === "presentation" || role === "none",
      };
      return true;
    }
    if (tag === "tr" && this.top.kind === "table") {
      const inHead = this.top.inHead === true;
      this.push("row", el).row = { cells: [], inHead };
      return true;
    }
    if ((tag === "td" || tag === "th") && this.top.kind === "row") {
      this.boundary();
      this.push("cell", el);
      return true;
    }
    return false;
  }

  /** Handles an element on the way up. */
  private exit(el: DomElement): void {
    this.flushText();
    this.caseSeam = false;
    if (isWidget(el, tagOf(el))) this.pendingSpace = true;
    const frame = this.top;
    if (frame.el !== el) {
      const tag = tagOf(el);
      if (tag === "thead" && frame.kind === "table") frame.inHead = false;
      if (tag === "q") frame.out.inline('"'); // before any pending space: `"wit" and`
      if (BLOCK_TAGS.has(tag)) this.boundary();
      return;
    }
    this.frames.pop();
    if (PREFIX_FRAMES.has(frame.kind)) this.prefixDepth--;
    if (frame.kind === "link") this.linkDepth--;
    if (frame.emphasis !== undefined) this.emphasisDepth[frame.emphasis]--;
    this.close(frame);
    if (frame.out.owesLineBreak()) this.top.out.lineBreak();
    this.release(frame);
  }

  /**
   * Pushes a frame for `el`; `indent` starts its lines after the first and `blankIndent` its
   * blank lines (lists, items, definitions and quotes carry the indentation and quote markers
   * of the items and quotes they are in; other frames' content is indented where it is added).
   */
  private push(kind: FrameKind, el: DomElement, indent = "", blankIndent = ""): Frame {
    const spare = this.spare.pop();
    let frame: Frame;
    if (spare === undefined) {
      frame = newFrame(kind, el, new Out(this.dialect.hardBreak, indent, blankIndent));
    } else {
      frame = spare;
      frame.kind = kind;
      frame.el = el;
      frame.out.reset(indent, blankIndent);
    }
    this.frames.push(frame);
    if (PREFIX_FRAMES.has(kind)) this.prefixDepth++;
    if (kind === "link") this.linkDepth++;
    return frame;
  }

  /** Keeps a closed frame for reuse, holding nothing of what it rendered. */
  private release(frame: Frame): void {
    frame.el = null;
    frame.level = undefined;
    frame.emphasis = undefined;
    frame.href = undefined;
    frame.next = undefined;
    frame.marker = undefined;
    frame.table = undefined;
    frame.inHead = undefined;
    frame.row = undefined;
    this.spare.push(frame);
  }

  /** The nearest open frame of `kind`. */
  private findFrame(kind: FrameKind): Frame | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      if (this.frames[i]!.kind === kind) return this.frames[i];
    }
    return undefined;
  }

  // ---- closing frames ---------------------------------------------------------------------

  /** Turns a finished frame's content into output of the enclosing frame. */
  private close(frame: Frame): void {
    const content = frame.out.toString();
    const d = this.dialect;
    switch (frame.kind) {
      case "heading": {
        const text = oneLine(content);
        if (text !== "") this.addBlock(d.heading(frame.level ?? 1, text));
        return;
      }
      case "emphasis":
        this.closeEmphasis(frame, content);
        return;
      case "link":
        this.closeLink(frame, content);
        return;
      case "quote":
        if (!frame.out.blank) this.addIndentedBlock(quoted(content, d.quotePrefix), false, 2);
        return;
      case "list":
        this.addIndentedBlock(content, frame.out.blank, this.top.kind === "item" ? 1 : 2);
        return;
      case "item":
        this.closeItem(frame, content);
        return;
      case "term":
        if (content.trim() !== "") this.addBlock(d.term(oneLine(content)), 2, 1);
        return;
      case "definition":
        if (!frame.out.blank) this.addIndentedBlock(d.definition(content), false, 1, 2);
        return;
      case "table":
        this.closeTable(frame, content);
        return;
      case "row":
        if (frame.row && frame.row.cells.length > 0) this.top.table?.rows.push(frame.row);
        if (content.trim() !== "") this.top.out.block(content); // stray text in <tr>
        return;
      case "cell": {
        const colspan = frame.el!.getAttribute("colspan");
        this.top.row?.cells.push({
          content,
          header: tagOf(frame.el!) === "th",
          colspan: colspan === null ? 1 : cellSpan(colspan),
        });
        return;
      }
      case "root":
        return;
    }
  }

  /** Emphasis around inline content; content with blocks is passed through unmarked. */
  private closeEmphasis(frame: Frame, content: string): void {
    if (content.trim() === "") return;
    if (frame.out.blocky) {
      this.addBlock(content);
      return;
    }
    this.top.out.inline(this.dialect.emphasis(frame.emphasis ?? "strong", content));
  }

  /**
   * A link around its text. A link around blocks (a card: heading, summary, image) links the
   * first line's text and leaves the rest as blocks, since Markdown links can't hold blocks.
   */
  private closeLink(frame: Frame, content: string): void {
    const href = frame.href!;
    if (content.trim() === "") return;
    if (!frame.out.blocky) {
      const text = content.includes("\n") ? content.replace(/ *\n+ */g, " ") : content;
      this.top.out.inline(this.dialect.link(text, href));
      return;
    }
    const lines = content.split("\n");
    // The first line with text: a card's heading rather than its picture.
    let index = lines.findIndex((line) => {
      const text = BLOCK_PREFIX.exec(line.trim())?.[2] ?? "";
      return text !== "" && !line.startsWith("```") && !IMAGE_ONLY.test(text);
    });
    if (index === -1)
      index = lines.findIndex((line) => line.trim() !== "" && !line.startsWith("```"));
    const match = index === -1 ? null : BLOCK_PREFIX.exec(lines[index]!.trim());
    if (match) lines[index] = `${match[1] ?? ""}${this.dialect.link(match[2]!, href)}`;
    this.addBlock(lines.join("\n"));
  }

  /** The marker of list item `el`, opening: numbers count every item of an ordered list. */
  private nextMarker(el: DomElement): string {
    const list = this.top.kind === "list" ? this.top : undefined;
    if (list?.next === undefined) return "- ";
    const value = Number.parseInt(attr(el, "value"), 10);
    const number = Number.isFinite(value) ? value : list.next;
    list.next = number + 1;
    return `${number}. `;
  }

  /** A list item with its marker, unless it holds nothing. */
  private closeItem(frame: Frame, content: string): void {
    if (frame.out.blank) return;
    this.addIndentedBlock(this.dialect.listItem(content, frame.marker!), false, 1, 1);
  }

  /** A data table through the dialect, or a layout table's cells as blocks. */
  private closeTable(frame: Frame, preamble: string): void {
    const table = frame.table!;
    if (preamble.trim() !== "") this.addBlock(preamble); // caption, stray text
    if (table.rows.length === 0) return;
    if (!isLayoutTable(table)) {
      this.addBlock(this.dialect.table(table));
      return;
    }
    for (const row of table.rows) {
      for (const cell of row.cells) {
        if (cell.content.trim() !== "") this.addBlock(cell.content);
      }
    }
  }

  // ---- content ----------------------------------------------------------------------------

  /** Adds a block to the current frame. */
  private addBlock(text: string, before = 2, after = 2): void {
    this.pendingSpace = false;
    if (text === "") this.top.out.separate(before);
    else this.top.out.block(text, before, after);
  }

  /** Adds a block of text, indented already (see `Out.indented`), to the current frame. */
  private addIndentedBlock(text: string, blank: boolean, before: number, after = 2): void {
    this.pendingSpace = false;
    if (text === "") this.top.out.separate(before);
    else this.top.out.indentedBlock(text, blank, before, after);
  }

  /** A block element starts or ends: the next content goes on a new paragraph. */
  private boundary(): void {
    this.pendingSpace = false;
    this.top.out.separate(2);
  }

  /** Writes the text nodes seen since the last element as one run. */
  private flushText(): void {
    if (this.textRun === "") return;
    const data = this.textRun;
    this.textRun = "";
    this.text(data);
  }

  /** Collapses and writes a run of text; with `href`, as the whole text of a link to it. */
  private text(data: string, href?: string): void {
    if (isCollapsibleSpace(data)) {
      // Only whitespace, the commonest text between elements: one space, written before what
      // comes next (and a link around nothing but a space is left out).
      this.pendingSpace = true;
      return;
    }
    let text = UNCLEAN.test(data) ? data.replace(INVISIBLE, "").replace(COLLAPSIBLE, " ") : data;
    // A link's text starts its own (empty) output.
    const lineStart = href !== undefined || this.top.out.atLineStart();
    if (LONE_JOINERS.test(text) && lineStart) text = text.includes(" ") ? " " : "";
    if (text === "") return;
    if (text === " ") {
      this.pendingSpace = true;
      return;
    }
    if (text.startsWith(" ")) this.pendingSpace = true;
    const core = text.trim();
    if (this.caseSeam && startsWordAtCase(this.lastTextChar, core)) this.pendingSpace = true;
    const frame = this.placeSpace();
    const context = this.escapeContext;
    context.lineStart =
      href === undefined && LINE_FRAMES.has(frame.kind) && frame.out.atLineStart();
    context.inLink = href !== undefined || this.linkDepth > 0;
    const escaped = this.dialect.escape(core, context);
    // A link whose text is only a space that trim takes (U+2009) is left out, as is any empty link.
    // Collapsed text holds no line break, nor does a link around it.
    if (href === undefined) frame.out.inlineLine(escaped);
    else if (escaped.trim() !== "") frame.out.inlineLine(this.dialect.link(escaped, href));
    this.lastTextChar = core[core.length - 1]!;
    if (text.endsWith(" ")) this.pendingSpace = true;
  }

  /**
   * Writes a pending space before new inline content and returns the frame the content goes
   * to. The space goes outside emphasis or links that have no content yet (`a **b**`, not
   * `a** b**`), and is dropped at the start of a line.
   */
  private placeSpace(): Frame {
    const frame = this.top;
    this.caseSeam = false;
    if (!this.pendingSpace) return frame;
    this.pendingSpace = false;
    let target = frame;
    for (let i = this.frames.length - 1; i > 0; i--) {
      const f = this.frames[i]!;
      if (!(INLINE_FRAMES.has(f.kind) && f.out.empty)) break;
      target = this.frames[i - 1]!;
    }
    if (!target.out.atLineStart()) target.out.inline(" ");
    return frame;
  }

  /** `<code>` outside `<pre>`: a code span of its collapsed text. */
  private inlineCode(el: DomElement): void {
    const raw = textOf(el);
    if (raw === "") return;
    const frame = this.placeSpace();
    frame.out.inline(this.dialect.inlineCode(raw.replace(INVISIBLE, "")));
  }

  /** `<img>`: skipped without a usable URL, for data URIs and for tracking pixels. */
  private image(el: DomElement): void {
    const src = imageSource(el, this.baseUrl);
    if (src === undefined) return;
    const alt = attr(el, "alt").replace(COLLAPSIBLE, " ").trim();
    const rendered = this.dialect.image(alt, this.dialect.url(src));
    if (rendered === "") return;
    const frame = this.placeSpace();
    frame.out.inline(rendered);
  }

  /**
   * `resolved`, the URL `href` resolves to, as the dialect writes it. A path from the root that
   * the dialect keeps as it is resolves to the base's scheme and authority followed by the path
   * (percent-encoded where the two differ, which adds no character the dialect rewrites), so the
   * dialect keeps the resolved URL too when it keeps the base's start: the URL, joined from the
   * two by reference, is then not read (reading it first made V8 copy it into one string, a
   * fifth of rendering a page of links).
   */
  private linkTarget(href: string, resolved: string): string {
    if (this.keepsBaseStart && ROOT_PATH.test(href) && this.dialect.url(href) === href) {
      return resolved;
    }
    return this.dialect.url(resolved);
  }

  /** `<a href>` opens a link frame; unsafe or nested links keep only their text. */
  private enterLink(el: DomElement): boolean {
    const href = el.getAttribute("href");
    if (href === null || this.linkDepth > 0) return true;
    if (href.trim().startsWith("#") && PERMALINK_TEXT.test(textOf(el))) return false;
    const resolved = resolveUrl(href, this.baseUrl);
    if (resolved === undefined) return true;
    const url = this.linkTarget(href, resolved);
    const only = el.firstChild;
    if (only !== null && only.nextSibling === null && isText(only)) {
      // A link around one text, the commonest, is written at once, as its frame would write it
      // and then close it.
      this.text(only.data, url);
      this.caseSeam = false;
      if (isWidget(el, "a")) this.pendingSpace = true;
      return false;
    }
    this.push("link", el).href = url;
    return true;
  }
}

/**
 * True when `data` is nothing but whitespace that collapses to one space (COLLAPSIBLE's
 * characters), tested without a pattern: most texts are short, and a pattern's setup costs more
 * than reading them.
 */
function isCollapsibleSpace(data: string): boolean {
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13 && c !== 12 && c !== 160) return false;
  }
  return data !== "";
}

/** A path from the root (`/a/b?c`), which names no host (as `//host` and `/\\host` do). */
const ROOT_PATH = /^\/(?![/\\])/;

/** The columns a cell spans, by its `colspan`: 1 to MAX_COLSPAN. */
function cellSpan(colspan: string): number {
  return Math.min(Math.max(Number.parseInt(colspan.trim(), 10) || 1, 1), MAX_COLSPAN);
}

/**
 * A quote's content, its lines after the first marked already, with its first line marked: by
 * `marker`, or by the marker without its trailing spaces when the line is blank.
 */
function quoted(content: string, marker: string): string {
  if (marker === "") return content;
  return startsWithNewline(content) ? `${marker.trimEnd()}${content}` : `${marker}${content}`;
}

/**
 * Content on one line (a heading, a table cell): each run of whitespace that breaks a line
 * becomes one space. The run is matched whole and then looked into: a pattern such as
 * `\s*\n\s*` retries from every space of a long run without a newline, in quadratic time.
 */
export function oneLine(content: string): string {
  if (!content.includes("\n")) return content.trim(); // no line to join: only the ends go
  return content.replace(WHITESPACE_RUN, (run) => (run.includes("\n") ? " " : run)).trim();
}
