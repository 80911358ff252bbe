/**
 * A small DOM built straight from htmlparser2's events: exactly the slice of the DOM that
 * extraction uses (see dom.ts), and nothing else. A full DOM (linkedom) gives every node an
 * event target, attribute objects and live collections; building those was half of the time
 * and most of the garbage of converting a page. Tag names and attribute names are lower case,
 * entities are decoded, adjacent text is merged, and the first of duplicate attributes wins.
 */
import { Tokenizer } from "htmlparser2";
import type { HtmlText } from "./chunked.js";
import {
  CDATA_SECTION_NODE,
  type DomDocument,
  type DomElement,
  type DomNode,
  ELEMENT_NODE,
  TEXT_NODE,
} from "./dom.js";
import {
  BLOCK_ELEMENTS,
  canonicalTagName,
  FOREIGN_ROOTS,
  HTML_INTEGRATION_ELEMENTS,
  OPEN_IMPLIES_CLOSE,
  VOID_ELEMENTS,
} from "./html-rules.js";

const COMMENT_NODE = 8;
const DOCUMENT_NODE = 9;

/**
 * Told of every change to the structure of a tree: text measurements (stats.ts) are kept
 * current through removals rather than taken again over the whole tree.
 */
export interface TreeObserver {
  /** `node` was taken out of `parent`. */
  removed(node: DomNode, parent: DomNode): void;
  /** A node was put into a tree. */
  inserted(): void;
}

let observer: TreeObserver | undefined;

/** Sets the observer told of the structural changes of every tree built here. */
export function observeTrees(next: TreeObserver): void {
  observer = next;
}

abstract class TreeNode implements DomNode {
  abstract readonly nodeType: number;
  abstract readonly nodeName: string;
  parentNode: TreeParent | null = null;
  nextSibling: TreeNode | null = null;
  previousSibling: TreeNode | null = null;
  get firstChild(): TreeNode | null {
    return null;
  }
  abstract get textContent(): string | null;

  remove(): void {
    this.parentNode?.unlink(this);
  }
}

/*
 * Nodes are made by their constructors. Made as object literals with the classes' prototypes,
 * a large page's nodes are placed by V8 in the old generation, in document order, once a fresh
 * thread has seen that they live long, and its tree was then twice as quick to convert; but not
 * in a thread that had converted many small pages first, and ordinary pages took 3% longer.
 * What is the same for every node of a class (its type and name) is on the prototype, not in
 * each node, and a text's counts need no copy of the text they were taken of, as it never
 * changes: the tree of 5 MB of links takes 60 MB instead of 68, and every collection that
 * copies it copies that much less.
 */
class TreeText extends TreeNode {
  declare readonly nodeType: number;
  declare readonly nodeName: string;
  /** Never changed once the tree is built. */
  data: string;
  /** The counts of `data` (see stats.ts); -1 until measured. */
  measuredChars: number;
  measuredCommas: number;
  constructor(data: string) {
    super();
    this.data = data;
    this.measuredChars = -1;
    this.measuredCommas = 0;
  }
  get textContent(): string {
    return this.data;
  }
}
onPrototype(TreeText, TEXT_NODE, "#text");

class TreeComment extends TreeText {}
onPrototype(TreeComment, COMMENT_NODE, "#comment");

/** Gives every node of `type` its `nodeType`, and its `nodeName` if given, on the prototype. */
function onPrototype(type: { prototype: object }, nodeType: number, nodeName?: string): void {
  Object.defineProperty(type.prototype, "nodeType", { value: nodeType });
  if (nodeName !== undefined)
    Object.defineProperty(type.prototype, "nodeName", { value: nodeName });
}

abstract class TreeParent extends TreeNode {
  /** First and last child. */
  protected head: TreeNode | null = null;
  protected tail: TreeNode | null = null;

  override get firstChild(): TreeNode | null {
    return this.head;
  }
  get lastChild(): TreeNode | null {
    return this.tail;
  }
  get firstElementChild(): TreeElement | null {
    let node = this.head;
    while (node !== null && node.nodeType !== ELEMENT_NODE) node = node.nextSibling;
    return node as TreeElement | null;
  }
  get childNodes(): TreeNode[] {
    const out: TreeNode[] = [];
    for (let node = this.head; node !== null; node = node.nextSibling) out.push(node);
    return out;
  }

  get textContent(): string {
    const parts: string[] = [];
    // Iterative: depth costs nothing.
    let node: TreeNode | null = this.head;
    while (node !== null) {
      if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) {
        parts.push((node as TreeText).data);
      }
      const child = node.firstChild;
      if (child !== null) {
        node = child;
        continue;
      }
      while (node !== null && node.nextSibling === null) {
        const parent: TreeParent | null = node.parentNode;
        node = parent === this ? null : parent;
      }
      if (node !== null) node = node.nextSibling;
    }
    return parts.join("");
  }

  /**
   * Appends a node just made, which no text measurement has seen: the parser's way in, which
   * tells no observer.
   */
  appendNew(node: TreeNode): void {
    this.link(node, null);
  }

  appendChild<T extends DomNode>(child: T): T {
    return this.insertBefore(child, null);
  }

  insertBefore<T extends DomNode>(child: T, reference: DomNode | null): T {
    const node = child as unknown as TreeNode;
    node.remove();
    this.link(node, reference as TreeNode | null);
    observer?.inserted();
    return child;
  }

  /** Puts `node`, which has no parent, before `ref`, or last. */
  private link(node: TreeNode, ref: TreeNode | null): void {
    node.parentNode = this;
    if (ref === null) {
      node.previousSibling = this.tail;
      node.nextSibling = null;
      if (this.tail) this.tail.nextSibling = node;
      else this.head = node;
      this.tail = node;
    } else {
      node.nextSibling = ref;
      node.previousSibling = ref.previousSibling;
      if (ref.previousSibling) ref.previousSibling.nextSibling = node;
      else this.head = node;
      ref.previousSibling = node;
    }
  }

  unlink(node: TreeNode): void {
    observer?.removed(node, this);
    if (node.previousSibling) node.previousSibling.nextSibling = node.nextSibling;
    else this.head = node.nextSibling;
    if (node.nextSibling) node.nextSibling.previousSibling = node.previousSibling;
    else this.tail = node.previousSibling;
    node.parentNode = null;
    node.nextSibling = null;
    node.previousSibling = null;
  }
}

class TreeElement extends TreeParent implements DomElement {
  declare readonly nodeType: typeof ELEMENT_NODE;
  readonly localName: string;
  /**
   * The attributes as the parser read them, each name (lower case) followed by its value, read
   * in place: most elements have none or a few, which are nearly always only read, and a search
   * of a short list is quicker than an object keyed by names no two pages share. The first change
   * moves them into `changed`, which is read from then on.
   */
  private readonly attributeList: readonly string[];
  private changed: Map<string, string> | undefined;
  /**
   * The stats the latest text measurement that covered this element took of it, and that
   * measurement's id (0 for none): see stats.ts. Kept in the element, not in an object of their
   * own, as a page is measured whole at least once and an object per element was most of what
   * measuring allocated.
   */
  chars: number;
  linkChars: number;
  commas: number;
  measuredBy: number;

  constructor(name: string, attributes: readonly string[]) {
    super();
    this.localName = name;
    this.attributeList = attributes;
    this.changed = undefined;
    this.chars = 0;
    this.linkChars = 0;
    this.commas = 0;
    this.measuredBy = 0;
  }
  get tagName(): string {
    return this.localName.toUpperCase();
  }
  get nodeName(): string {
    return this.tagName;
  }
  get nextElementSibling(): TreeElement | null {
    let node = this.nextSibling;
    while (node !== null && node.nodeType !== ELEMENT_NODE) node = node.nextSibling;
    return node as TreeElement | null;
  }
  getAttribute(name: string): string | null {
    // Most elements have no attributes, and every pass asks each one for several.
    if (this.attributeList === NO_ATTRIBUTES && this.changed === undefined) return null;
    // Names are stored lower-cased, and callers nearly always ask in lower case already.
    const value = this.read(name);
    if (value !== undefined) return value;
    return isLowerCase(name) ? null : (this.read(name.toLowerCase()) ?? null);
  }
  hasAttribute(name: string): boolean {
    if (this.attributeList === NO_ATTRIBUTES && this.changed === undefined) return false;
    return this.read(isLowerCase(name) ? name : name.toLowerCase()) !== undefined;
  }
  setAttribute(name: string, value: string): void {
    this.change().set(name.toLowerCase(), String(value));
  }
  removeAttribute(name: string): void {
    this.change().delete(name.toLowerCase());
  }
  getAttributeNames(): string[] {
    if (this.changed) return [...this.changed.keys()];
    const names: string[] = [];
    for (let i = 0; i < this.attributeList.length; i += 2) names.push(this.attributeList[i]!);
    return names;
  }
  private read(name: string): string | undefined {
    if (this.changed) return this.changed.get(name);
    return valueIn(this.attributeList, name);
  }
  private change(): Map<string, string> {
    if (this.changed) return this.changed;
    const changed = new Map<string, string>();
    const list = this.attributeList;
    for (let i = 0; i < list.length; i += 2) changed.set(list[i]!, list[i + 1]!);
    this.changed = changed;
    return changed;
  }
}

onPrototype(TreeElement, ELEMENT_NODE); // its nodeName is its tag name, a getter

/** The attributes of an element created without any. */
const NO_ATTRIBUTES: readonly string[] = Object.freeze([]);

/** The value after `name` in a list of names and values, or undefined. */
function valueIn(list: readonly string[], name: string): string | undefined {
  for (let i = 0; i < list.length; i += 2) {
    if (list[i] === name) return list[i + 1];
  }
  return undefined;
}

/**
 * Names found to hold no character that `toLowerCase()` changes, each in a slot chosen by its
 * length and first character. Every pass asks each element for the same few names, and reading
 * a name's characters again on each element that lacks it was the largest self time of
 * extraction on 5 MB of links in paragraphs.
 */
const LOWER_CASE_NAMES: string[] = new Array<string>(64).fill("");

/** True when `name` holds no character that `toLowerCase()` changes. */
function isLowerCase(name: string): boolean {
  const slot = (name.length * 7 + name.charCodeAt(0)) & 63;
  if (LOWER_CASE_NAMES[slot] === name) return true;
  if (hasUpperAscii(name)) return false;
  LOWER_CASE_NAMES[slot] = name;
  return true;
}

/** True when `name` holds a character that `toLowerCase()` changes. */
function hasUpperAscii(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if ((c >= 65 && c <= 90) || c > 127) return true;
  }
  return false;
}

class TreeDocument extends TreeParent implements DomDocument {
  readonly nodeType = DOCUMENT_NODE;
  readonly nodeName = "#document";
  /**
   * Every `<base>` element made for this document, by the parser or createElement, in the order
   * made: few pages have one, and knowing there is none saves a walk of the whole tree.
   */
  readonly baseElements: TreeElement[] = [];
  /** Every `<style>` element the parser made, in document order: most pages have a few. */
  readonly styleElements: TreeElement[] = [];
  get documentElement(): TreeElement | null {
    return this.firstElementChild;
  }
  createElement(tagName: string): TreeElement {
    const element = new TreeElement(tagName.toLowerCase(), NO_ATTRIBUTES);
    if (element.localName === "base") this.baseElements.push(element);
    return element;
  }
}

/** Bounds of the tree built from one page. */
export interface TreeLimits {
  /** Deepest nesting: a start tag past it is dropped (its end tag too), its content kept. */
  maxDepth: number;
  /** Most tags and comments: the HTML is read up to the one past this. */
  maxNodes: number;
}

/** A built tree, and whether the HTML was read only up to TreeLimits.maxNodes. */
export interface BuiltTree {
  document: DomDocument;
  truncated: boolean;
}

const UNLIMITED: TreeLimits = {
  maxDepth: Number.POSITIVE_INFINITY,
  maxNodes: Number.POSITIVE_INFINITY,
};

/**
 * Builds a document from HTML with htmlparser2's tokenizer and the tree rules of its parser
 * (implied end tags, void elements, `<x/>` in SVG and MathML, `</p>` and `</br>` alone), applied
 * here directly: its parser kept its open elements in an array it `unshift`s and searched, which
 * cost the depth per tag, and handed every element an attribute object and several callbacks.
 * Tag and attribute names are lower-cased, entities decoded, adjacent text merged, and the first
 * of duplicate attributes wins.
 *
 * @example
 * buildTree("<p>a<p>b").document; // <p>a</p><p>b</p>
 */
export function buildTree(html: HtmlText, limits: TreeLimits = UNLIMITED): BuiltTree {
  const builder = new TreeBuilder(html, limits);
  builder.run();
  return { document: builder.document, truncated: builder.truncated };
}

/** What htmlparser2's tokenizer calls back. */
type TokenizerCallbacks = ConstructorParameters<typeof Tokenizer>[1];

/** The tokenizer's reading position: the piece written last, its offset, the index read. */
interface TokenizerPosition {
  buffer: string;
  offset: number;
  index: number;
}

/**
 * htmlparser2's tokenizer, skipping through a script, style or comment to the character it
 * waits for with the string's own search. Its loop over character codes reached, at the end of
 * each piece of a page, a line the compiler had no feedback for and left the optimized code
 * there every time (thousands of times over the dev pages); here every line runs on every
 * call. The method is the tokenizer's own (its version is pinned): were it renamed, the
 * tokenizer would skip as before.
 */
class PieceTokenizer extends Tokenizer {}
if (
  typeof (Tokenizer.prototype as unknown as Record<string, unknown>).fastForwardTo === "function"
) {
  Object.defineProperty(PieceTokenizer.prototype, "fastForwardTo", {
    value(this: TokenizerPosition, code: number): boolean {
      const { buffer, offset } = this;
      const last = buffer.length + offset - 1;
      const at = buffer.indexOf(String.fromCharCode(code), this.index + 1 - offset);
      this.index = at === -1 ? last : at + offset;
      return at !== -1;
    },
  });
}

/**
 * HTML from which the builder lists its nodes in the order made (see TreeBuilder.#inOrder):
 * a page whose tree outgrows the young generation while it is built.
 */
const LISTED_FROM_CHARS = 512 * 1024;

/** The tokenizer's events turned into the tree, as htmlparser2's Parser would. */
class TreeBuilder implements TokenizerCallbacks {
  readonly document = new TreeDocument();
  truncated = false;
  readonly #html: HtmlText;
  /** The piece being read and where it starts in the HTML: most spans lie within it. */
  #piece = "";
  #pieceStart = 0;
  readonly #limits: TreeLimits;
  readonly #tokenizer: Tokenizer;
  #current: TreeParent = this.document;
  /** Names of the open elements, innermost last. */
  readonly #stack: string[] = [];
  /** How many of each name are open: an end tag that closes nothing is told without a search. */
  readonly #open = new Map<string, number>();
  /** Start tags dropped for depth, by name, whose end tags are dropped in turn. */
  readonly #dropped = new Map<string, number>();
  /** Whether `<x/>` closes itself, innermost last (htmlparser2's bookkeeping, quirks included). */
  readonly #selfClosing: boolean[] = [false];
  #nodes = 0;
  #stopped = false;
  /**
   * The nodes of a large page in the order made, which is document order, while its tree is
   * built. V8 moves the young objects that survive a collection in the order it meets them, and
   * meets an old list's entries first, in their order; without the list it met the nodes by
   * following their links, and a tree larger than the young generation was laid out in memory
   * in an order no walk follows, so that each of the dozen walks of extraction missed the cache
   * at nearly every node. Walking the tree of a 2.5 MB table: about 24 -> 6 ms. The list is
   * dropped with the builder. A smaller page's tree is left alone: listing it cost its parse
   * about 2%, and converting a 0.5 MB table 7%, for nothing.
   */
  readonly #inOrder: TreeNode[] | undefined;
  /** The start tag being read: its name, attributes, and whether it is too deep to keep. */
  #tagName = "";
  #attributes: string[] | null = null;
  #tooDeep = false;
  #attributeName = "";
  #attributeValue = "";

  constructor(html: HtmlText, limits: TreeLimits) {
    this.#html = html;
    this.#limits = limits;
    this.#inOrder = html.length >= LISTED_FROM_CHARS ? [] : undefined;
    this.#tokenizer = new PieceTokenizer({ decodeEntities: true }, this);
  }

  run(): void {
    // Pieces go in one after the other: the tokenizer carries a tag or a text across them.
    const pieces = typeof this.#html === "string" ? [this.#html] : this.#html.chunks;
    let start = 0;
    for (const piece of pieces) {
      if (this.#stopped) return;
      this.#piece = piece;
      this.#pieceStart = start;
      this.#tokenizer.write(piece);
      start += piece.length;
    }
    if (!this.#stopped) this.#tokenizer.end();
  }

  /** The HTML from `start` to `end` (offsets in the whole, as the tokenizer gives them). */
  #slice(start: number, end: number): string {
    const at = this.#pieceStart;
    if (start >= at) return this.#piece.slice(start - at, end - at);
    return this.#html.slice(start, end); // a name begun in an earlier piece
  }

  /** `node`, listed in the order made when the page is large (see #inOrder). */
  #listed<T extends TreeNode>(node: T): T {
    this.#inOrder?.push(node);
    return node;
  }

  /** Counts a tag or comment; past the limit, reading stops before it. */
  #overLimit(): boolean {
    if (this.#stopped) return true;
    if (++this.#nodes <= this.#limits.maxNodes) return false;
    this.truncated = true;
    this.#stopped = true;
    this.#tokenizer.pause();
    return true;
  }

  #text(data: string, type: number): void {
    const last = this.#current.lastChild;
    if (last !== null && last.nodeType === type && type === TEXT_NODE) {
      (last as TreeText).data += data;
    } else {
      this.#current.appendNew(
        this.#listed(type === TEXT_NODE ? new TreeText(data) : new TreeComment(data)),
      );
    }
  }

  ontext(start: number, end: number): void {
    if (!this.#stopped) this.#text(this.#slice(start, end), TEXT_NODE);
  }

  ontextentity(codePoint: number): void {
    if (!this.#stopped) this.#text(String.fromCodePoint(codePoint), TEXT_NODE);
  }

  oncomment(start: number, end: number, offset: number): void {
    if (!this.#overLimit()) this.#text(this.#slice(start, end - offset), COMMENT_NODE);
  }

  oncdata(start: number, end: number, offset: number): void {
    // HTML reads CDATA as a comment.
    if (!this.#overLimit()) {
      this.#text(`[CDATA[${this.#slice(start, end - offset)}]]`, COMMENT_NODE);
    }
  }

  ondeclaration(): void {
    this.#overLimit();
  }

  onprocessinginstruction(): void {
    this.#overLimit();
  }

  onopentagname(start: number, end: number): void {
    if (this.#overLimit()) return;
    this.#startTag(canonicalTagName(this.#slice(start, end).toLowerCase()), true);
  }

  /** A start tag's name: the elements it closes, and its place among the open ones. */
  #startTag(name: string, bounded: boolean): void {
    this.#tagName = name;
    this.#attributes = NO_ATTRIBUTES as string[]; // a list of its own once an attribute comes
    this.#tooDeep = false;
    const implied = OPEN_IMPLIES_CLOSE.get(name);
    if (implied) {
      while (this.#stack.length > 0 && implied.has(this.#stack[this.#stack.length - 1]!)) {
        this.#pop();
      }
    }
    if (VOID_ELEMENTS.has(name)) return;
    this.#tooDeep = bounded && this.#stack.length >= this.#limits.maxDepth;
    if (this.#tooDeep) return;
    this.#stack.push(name);
    this.#open.set(name, (this.#open.get(name) ?? 0) + 1);
    if (FOREIGN_ROOTS.has(name)) this.#selfClosing.push(true);
    else if (HTML_INTEGRATION_ELEMENTS.has(name)) this.#selfClosing.push(false);
  }

  onattribname(start: number, end: number): void {
    if (this.#attributes !== null) this.#attributeName = this.#slice(start, end).toLowerCase();
  }

  onattribdata(start: number, end: number): void {
    if (this.#attributes !== null) this.#attributeValue += this.#slice(start, end);
  }

  onattribentity(codePoint: number): void {
    if (this.#attributes !== null) this.#attributeValue += String.fromCodePoint(codePoint);
  }

  onattribend(): void {
    const attributes = this.#attributes;
    const name = this.#attributeName;
    if (attributes !== null && valueIn(attributes, name) === undefined) {
      if (attributes === NO_ATTRIBUTES) this.#attributes = [name, this.#attributeValue];
      else attributes.push(name, this.#attributeValue);
    }
    this.#attributeValue = "";
  }

  onopentagend(): void {
    if (this.#attributes === null) return;
    if (this.#tooDeep) {
      this.#dropped.set(this.#tagName, (this.#dropped.get(this.#tagName) ?? 0) + 1);
      this.#attributes = null;
      this.#tooDeep = false;
      this.#keepApart(this.#tagName);
      return;
    }
    this.#addElement(true);
  }

  onselfclosingtag(): void {
    if (this.#attributes === null) return;
    if (!this.#selfClosing[this.#selfClosing.length - 1]) {
      this.onopentagend();
      return;
    }
    // In SVG or MathML `<x/>` is opened and closed at once, however deep.
    const name = this.#tagName;
    if (this.#tooDeep) {
      this.#tooDeep = false;
      this.#addElement(false);
      return;
    }
    this.#addElement(true);
    if (this.#stack[this.#stack.length - 1] === name) this.#pop();
  }

  /** Adds the element whose start tag was read, and enters it (`enter`) unless it is void. */
  #addElement(enter: boolean): void {
    const name = this.#tagName;
    const attributes = this.#attributes!;
    this.#attributes = null;
    const element = this.#listed(new TreeElement(name, attributes));
    if (name === "base") this.document.baseElements.push(element);
    else if (name === "style") this.document.styleElements.push(element);
    this.#current.appendNew(element);
    if (enter && !VOID_ELEMENTS.has(name)) this.#current = element;
  }

  onclosetag(start: number, end: number): void {
    if (this.#stopped) return;
    const name = this.#slice(start, end).toLowerCase();
    if (FOREIGN_ROOTS.has(name) || HTML_INTEGRATION_ELEMENTS.has(name)) this.#selfClosing.pop();
    if (VOID_ELEMENTS.has(name)) {
      // `</br>` is a line break; other void end tags are nothing.
      if (name === "br")
        this.#current.appendNew(this.#listed(new TreeElement("br", NO_ATTRIBUTES)));
      return;
    }
    if ((this.#open.get(name) ?? 0) > 0) {
      let top = this.#pop();
      while (top !== name) top = this.#pop();
      return;
    }
    const dropped = this.#dropped.get(name) ?? 0;
    if (dropped > 0) {
      this.#dropped.set(name, dropped - 1);
      this.#keepApart(name);
    } else if (name === "p") {
      // `</p>` alone is an empty paragraph.
      this.#startTag("p", false);
      this.#addElement(true);
      this.#pop();
    }
  }

  /**
   * Where a block element nested too deep was dropped, a space: its text and its neighbours'
   * stay words apart, as the browser's lines would keep them.
   */
  #keepApart(name: string): void {
    if (BLOCK_ELEMENTS.has(name)) this.#text(" ", TEXT_NODE);
  }

  /** Closes the innermost open element; returns its name. */
  #pop(): string {
    const name = this.#stack.pop()!;
    this.#open.set(name, this.#open.get(name)! - 1);
    this.#current = this.#current.parentNode ?? this.document;
    return name;
  }

  onend(): void {}
}
