/**
 * Reads the schema.org JSON-LD blocks of a page (`<script type="application/ld+json">`) into the
 * few facts metadata needs: the main entity's headline, description, authors, date and
 * publisher. Blocks are often malformed, nested in `@graph` arrays, or link entities by `@id`;
 * all of that is handled without recursion and with a cap on how many objects are looked at.
 */

/** Most JSON-LD objects inspected per page; real pages have a few dozen. */
const MAX_NODES = 2000;
/** Most authors read from one `author` value. */
const MAX_AUTHORS = 10;

/** Types whose node is the page's main content, best first. */
const ARTICLE_TYPES = new Set([
  "article",
  "newsarticle",
  "blogposting",
  "techarticle",
  "scholarlyarticle",
  "report",
  "socialmediaposting",
  "liveblogposting",
  "analysisnewsarticle",
  "opinionnewsarticle",
  "reportagenewsarticle",
  "reviewnewsarticle",
  "backgroundnewsarticle",
  "discussionforumposting",
  "review",
]);

/** Page-level types, used when no more specific entity is found. */
const PAGE_TYPES = new Set([
  "webpage",
  "aboutpage",
  "checkoutpage",
  "collectionpage",
  "contactpage",
  "faqpage",
  "itempage",
  "medicalwebpage",
  "profilepage",
  "qapage",
  "realestatelisting",
  "searchresultspage",
]);

/** Types that describe the site or its parts, never the page's main entity. */
const SUPPORTING_TYPES = new Set([
  "website",
  "organization",
  "newsmediaorganization",
  "corporation",
  "person",
  "breadcrumblist",
  "listitem",
  "imageobject",
  "searchaction",
  "sitenavigationelement",
  "wpheader",
  "wpfooter",
  "wpsidebar",
  "readaction",
  "entrypoint",
  "place",
  "postaladdress",
  "contactpoint",
  "offer",
  "aggregaterating",
  "rating",
]);

/** The type whose `name` is the site name. */
const WEBSITE_TYPES = new Set(["website"]);
/** Organizations, whose `name` stands in for the site name when no WebSite is described. */
const ORGANIZATION_TYPES = new Set(["organization", "newsmediaorganization", "corporation"]);

/** Comment and CDATA wrappers some CMSs put around JSON-LD. */
const WRAPPER = /^\s*(?:<!--|<!\[CDATA\[)|(?:-->|\]\]>)\s*$/g;

/** A JSON object. */
type JsonObject = Record<string, unknown>;

/** What the page's JSON-LD says about it; every field optional. */
export interface JsonLdFacts {
  title?: string;
  description?: string;
  author?: string;
  publishedAt?: string;
  siteName?: string;
  lang?: string;
}

/**
 * Extracts facts from the text of the page's JSON-LD scripts; blocks that don't parse are
 * skipped.
 *
 * @example
 * readJsonLd(['{"@type":"NewsArticle","headline":"Hi","author":{"name":"Ann"}}']);
 * // { title: "Hi", author: "Ann" }
 */
export function readJsonLd(scripts: readonly string[]): JsonLdFacts {
  const nodes = collectNodes(scripts);
  if (nodes.length === 0) return {};
  const byId = new Map<string, JsonObject>();
  for (const node of nodes) {
    const id = node["@id"];
    if (typeof id === "string" && !byId.has(id)) byId.set(id, node);
  }
  const deref = (value: unknown): unknown => {
    if (isObject(value) && typeof value["@id"] === "string" && Object.keys(value).length === 1) {
      return byId.get(value["@id"]) ?? value;
    }
    return value;
  };

  const main =
    nodes.find((n) => hasType(n, ARTICLE_TYPES)) ??
    nodes.find(
      (n) => typesOf(n).length > 0 && !hasType(n, SUPPORTING_TYPES) && !hasType(n, PAGE_TYPES),
    ) ??
    nodes.find((n) => hasType(n, PAGE_TYPES));
  const website = nodes.find((n) => hasType(n, WEBSITE_TYPES));
  const organization = nodes.find((n) => hasType(n, ORGANIZATION_TYPES));

  const facts: JsonLdFacts = {};
  if (main) {
    const title = text(main.headline) ?? text(main.name);
    if (title) facts.title = title;
    const description = text(main.description);
    if (description) facts.description = description;
    const author = names(main.author ?? main.creator, deref);
    if (author) facts.author = author;
    const date = text(main.datePublished) ?? text(main.dateCreated) ?? text(main.uploadDate);
    if (date) facts.publishedAt = date;
    const lang = text(main.inLanguage);
    if (lang) facts.lang = lang;
  }
  // The site's name: the WebSite entity says it best, then the publisher, then any organization.
  const siteName =
    (website ? text(website.name) : undefined) ??
    (main ? names(main.publisher, deref) : undefined) ??
    (organization ? text(organization.name) : undefined);
  if (siteName) facts.siteName = siteName;
  return facts;
}

/** Parses each script and flattens arrays and `@graph`s into a list of objects. */
function collectNodes(scripts: readonly string[]): JsonObject[] {
  const nodes: JsonObject[] = [];
  for (const script of scripts) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(script.replace(WRAPPER, ""));
    } catch {
      continue;
    }
    // Depth-first, document order, without recursion.
    const stack: unknown[] = [parsed];
    while (stack.length > 0 && nodes.length < MAX_NODES) {
      const value = stack.pop();
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
      } else if (isObject(value)) {
        nodes.push(value);
        if (value["@graph"] !== undefined) stack.push(value["@graph"]);
      }
    }
  }
  return nodes;
}

/** Lower-cased `@type`s of a node (string or array). */
function typesOf(node: JsonObject): string[] {
  const type = node["@type"];
  const list = Array.isArray(type) ? type : [type];
  return list.filter((t): t is string => typeof t === "string").map((t) => t.toLowerCase());
}

/** True when any of the node's types is in `set`. */
function hasType(node: JsonObject, set: ReadonlySet<string>): boolean {
  return typesOf(node).some((t) => set.has(t));
}

/** A plain object (not an array, not null). */
function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A string value: strings, numbers, `{"@value": …}`, or the first such item of an array. */
function text(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  const raw = isObject(first) ? first["@value"] : first;
  if (typeof raw === "number") return String(raw);
  if (typeof raw !== "string") return undefined;
  const cleaned = decodeBasicEntities(raw).replace(/\s+/g, " ").trim();
  return cleaned === "" ? undefined : cleaned;
}

/** Names from a string, a `{name}` object, an `@id` reference, or an array of them; joined. */
function names(value: unknown, deref: (value: unknown) => unknown): string | undefined {
  const list = Array.isArray(value) ? value.slice(0, MAX_AUTHORS) : [value];
  const out: string[] = [];
  for (const item of list) {
    const entity = deref(item);
    const name = isObject(entity) ? text(entity.name) : text(entity);
    if (name && !out.includes(name)) out.push(name);
  }
  return out.length > 0 ? joinNames(out) : undefined;
}

/** "Ann", "Ann and Bo", "Ann, Bo and Cy": how a byline lists several people. */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** Entities CMSs leave HTML-escaped inside JSON strings. */
const BASIC_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/** Decodes `&amp;`-style basic and numeric entities. */
function decodeBasicEntities(value: string): string {
  if (!value.includes("&")) return value;
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (match, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1] === "x" || name[1] === "X"
          ? Number.parseInt(name.slice(2), 16)
          : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return BASIC_ENTITIES[name.toLowerCase()] ?? match;
  });
}
