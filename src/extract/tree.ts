/**
 * A small DOM built straight from htmlparser2's events: exactly the slice of the DOM that
 * extraction uses (see dom.ts), and nothing else. A full DOM (linkedom) gives every node an
 * event target, attribute objects and live collections; building those was half of the time
 * and most of the garbage of converting a page. Tag names and attribute names are lower case,
 * entities are decoded, adjacent text is merged, and the first of duplicate attributes wins.
 */
import { Parser } from "htmlparser2";
import type { HtmlText } from "./chunked.js";
import {
  CDATA_SECTION_NODE,
  type DomDocument,
  type DomElement,
  type DomNode,
  ELEMENT_NODE,
  TEXT_NODE,
} from "./dom.js";

const COMMENT_NODE = 8;
const DOCUMENT_NODE = 9;

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

class TreeText extends TreeNode {
  readonly nodeType: number;
  readonly nodeName: string;
  /** The data a text measurement last counted, and its counts (see stats.ts). */
  measuredData: string | undefined = undefined;
  measuredChars = 0;
  measuredCommas = 0;
  constructor(
    public data: string,
    type = TEXT_NODE,
  ) {
    super();
    this.nodeType = type;
    this.nodeName = type === COMMENT_NODE ? "#comment" : "#text";
  }
  get textContent(): string {
    return this.data;
  }
}

abstract class TreeParent extends TreeNode {
  #first: TreeNode | null = null;
  #last: TreeNode | null = null;

  override get firstChild(): TreeNode | null {
    return this.#first;
  }
  get lastChild(): TreeNode | null {
    return this.#last;
  }
  get firstElementChild(): TreeElement | null {
    let node = this.#first;
    while (node !== null && node.nodeType !== ELEMENT_NODE) node = node.nextSibling;
    return node as TreeElement | null;
  }
  get childNodes(): TreeNode[] {
    const out: TreeNode[] = [];
    for (let node = this.#first; node !== null; node = node.nextSibling) out.push(node);
    return out;
  }

  get textContent(): string {
    const parts: string[] = [];
    // Iterative: depth costs nothing.
    let node: TreeNode | null = this.#first;
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

  appendChild<T extends DomNode>(child: T): T {
    return this.insertBefore(child, null);
  }

  insertBefore<T extends DomNode>(child: T, reference: DomNode | null): T {
    const node = child as unknown as TreeNode;
    node.remove();
    const ref = reference as TreeNode | null;
    node.parentNode = this;
    if (ref === null) {
      node.previousSibling = this.#last;
      node.nextSibling = null;
      if (this.#last) this.#last.nextSibling = node;
      else this.#first = node;
      this.#last = node;
    } else {
      node.nextSibling = ref;
      node.previousSibling = ref.previousSibling;
      if (ref.previousSibling) ref.previousSibling.nextSibling = node;
      else this.#first = node;
      ref.previousSibling = node;
    }
    return child;
  }

  unlink(node: TreeNode): void {
    if (node.previousSibling) node.previousSibling.nextSibling = node.nextSibling;
    else this.#first = node.nextSibling;
    if (node.nextSibling) node.nextSibling.previousSibling = node.previousSibling;
    else this.#last = node.previousSibling;
    node.parentNode = null;
    node.nextSibling = null;
    node.previousSibling = null;
  }
}

class TreeElement extends TreeParent implements DomElement {
  readonly nodeType = ELEMENT_NODE;
  readonly localName: string;
  /**
   * The parser's own attribute object, read in place: copying every element's attributes into
   * a Map cost an array and a Map per element, for attributes that are nearly always only read.
   * The first change moves them into #changed, which is read from then on.
   */
  readonly #attributes: Readonly<Record<string, string>>;
  #changed: Map<string, string> | undefined;
  /** The stats of the latest text measurement that covered this element (see stats.ts). */
  textStats: unknown = undefined;

  constructor(name: string, attributes?: Record<string, string>) {
    super();
    this.localName = name;
    this.#attributes = attributes ?? NO_ATTRIBUTES;
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
    if (this.#attributes === NO_ATTRIBUTES && this.#changed === undefined) return null;
    // Names are stored lower-cased, and callers nearly always ask in lower case already.
    const value = this.#read(name);
    if (value !== undefined) return value;
    return hasUpperAscii(name) ? (this.#read(name.toLowerCase()) ?? null) : null;
  }
  hasAttribute(name: string): boolean {
    return this.#read(name.toLowerCase()) !== undefined;
  }
  setAttribute(name: string, value: string): void {
    this.#change().set(name.toLowerCase(), String(value));
  }
  removeAttribute(name: string): void {
    this.#change().delete(name.toLowerCase());
  }
  getAttributeNames(): string[] {
    return this.#changed ? [...this.#changed.keys()] : Object.keys(this.#attributes);
  }
  #read(name: string): string | undefined {
    if (this.#changed) return this.#changed.get(name);
    // Own properties only: the object's prototype is Object's.
    return Object.hasOwn(this.#attributes, name) ? this.#attributes[name] : undefined;
  }
  #change(): Map<string, string> {
    this.#changed ??= new Map(Object.entries(this.#attributes));
    return this.#changed;
  }
}

/** The attributes of an element created without any. */
const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

/** True when `record` has no keys, without listing them. */
function isEmpty(record: Record<string, string>): boolean {
  for (const _ in record) return false;
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
  get documentElement(): TreeElement | null {
    return this.firstElementChild;
  }
  createElement(tagName: string): TreeElement {
    return new TreeElement(tagName.toLowerCase());
  }
}

/**
 * Builds a document from HTML with htmlparser2 (the tokenizer and tree rules linkedom uses).
 * The caller bounds the input: nesting depth and size are checked before this (see parse.ts).
 */
export function buildTree(html: HtmlText): DomDocument {
  const document = new TreeDocument();
  let current: TreeParent = document;
  const text = (data: string, type: number) => {
    const last = current.lastChild;
    if (last !== null && last.nodeType === type && type === TEXT_NODE) {
      (last as TreeText).data += data;
    } else {
      current.appendChild(new TreeText(data, type));
    }
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const element = new TreeElement(name, isEmpty(attributes) ? undefined : attributes);
        current.appendChild(element);
        current = element;
      },
      onclosetag() {
        current = current.parentNode ?? document;
      },
      ontext(data) {
        text(data, TEXT_NODE);
      },
      oncomment(data) {
        text(data, COMMENT_NODE);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  // Pieces go in one after the other: the parser carries a tag or a text across them.
  if (typeof html === "string") parser.write(html);
  else for (const chunk of html.chunks) parser.write(chunk);
  parser.end();
  return document;
}
