/**
 * Guesses what kind of page this is, from what the page says about itself (JSON-LD types,
 * `og:type`, the generator) and the shape of its URL. Extraction differs by type, as in
 * rs-trafilatura's page-type profiles: on a forum the replies are the content, on a blog they
 * are not.
 *
 * Only signals that cost nothing to read are used: the DOM has not been scored yet.
 */

import type { RawMetadata } from "./metadata.js";

/** The page types extraction tells apart; `"page"` is anything else (articles included). */
export type PageType = "forum" | "product" | "listing" | "documentation" | "page";

/** Forum and Q&A software, by its `<meta name="generator">`. */
const FORUM_GENERATOR =
  /discourse|phpbb|vbulletin|xenforo|invision|flarum|nodebb|mybb|smf|vanilla|khoros|lithium/i;
/** JSON-LD types of a discussion. */
const FORUM_TYPES = new Set(["discussionforumposting", "qapage"]);
/**
 * URL paths of threads: Discourse `/t/slug/123`, Flarum `/d/123-slug`, XenForo `/threads/`,
 * Stack Exchange `/questions/123`, Reddit comments, SMF `?topic=`, phpBB and vBulletin scripts.
 */
const FORUM_PATH =
  /\/t\/[^/]+\/\d+|\/t\/\d+\/|\/d\/\d+-|\/(?:threads?|forums?|discussions?)\/[^/]|\/questions\/\d+|\/r\/[^/]+\/comments\/|[?&]topic=\d|showtopic|viewtopic\.php|showthread\.php|\/topic\/\d+|\/thread-\d+/i;
/**
 * Hosts of forums: `forum.`, `forums.`, `community.`, `discuss.` and `lemmy.` subdomains, and
 * sites named for their forum (`warriorforum.com`, `avforums.com`, `l-camera-forum.com`).
 */
const FORUM_HOST = /^(?:forums?|community|discuss|discourse|boards?|lemmy)\.|forum[\w-]*\.[a-z]+$/i;

/** JSON-LD types of a product page. */
const PRODUCT_TYPES = new Set(["product", "productgroup", "individualproduct"]);
/** An offer (price, availability) in JSON-LD: what makes a Product the page's subject. */
const LD_OFFERS = /"offers"\s*:/;
/**
 * URL paths of product pages: Amazon `/dp/`, eBay `/itm/`, Etsy `/listing/123`, `/product/`, and
 * app stores' pages of one app (Steam `/app/730/…`, Apple `/app/notes/id123`).
 */
const PRODUCT_PATH =
  /\/(?:(?:dp|gp\/product|itm|item|product|listing\/\d+|app\/\d+)\/[^/]|app\/[^/]+\/id\d+)/i;
/** JSON-LD types of a listing. */
const LISTING_TYPES = new Set(["itemlist", "collectionpage", "searchresultspage", "offercatalog"]);
/**
 * True when the only listing type is a plain ItemList: beside an article it lists the
 * article's related stories or slides, and the page is the article.
 */
function listOnly(types: ReadonlySet<string>): boolean {
  for (const type of LISTING_TYPES) if (type !== "itemlist" && types.has(type)) return false;
  return true;
}

/** Article, NewsArticle, ReportageNewsArticle, BlogPosting and their kin. */
function isArticleType(type: string): boolean {
  return (type.endsWith("article") && type !== "techarticle") || type === "blogposting";
}

/** JSON-LD types of documentation. */
const DOCUMENTATION_TYPES = new Set(["techarticle", "apireference"]);
/** Hosts and paths of documentation. */
const DOCUMENTATION_HOST = /^(?:docs?|developers?|devdocs|learn|wiki|api)\./i;
const DOCUMENTATION_PATH =
  /\/(?:docs?|documentation|manual|reference|api|guides?|wiki|tutorial)\//i;

/** `"@type": "X"` and `"@type": ["X", …]` in JSON-LD text, read without parsing it. */
const LD_TYPE = /"@type"\s*:\s*(?:\[\s*)?"([^"]{1,64})"/g;

/**
 * The page's type.
 *
 * @example
 * classifyPage(gatherMetadata(document), "https://forum.example.com/t/slug/42"); // "forum"
 */
export function classifyPage(raw: RawMetadata, url?: string): PageType {
  const types = new Set<string>();
  let products = false;
  let offers = false;
  for (const text of raw.jsonLd) {
    for (const match of text.matchAll(LD_TYPE)) {
      const type = match[1]!.replace(/^https?:\/\/schema\.org\//i, "").toLowerCase();
      types.add(type);
      products ||= PRODUCT_TYPES.has(type);
    }
    offers ||= LD_OFFERS.test(text);
  }
  const has = (set: ReadonlySet<string>) => [...types].some((t) => set.has(t));
  const generator = raw.meta.get("generator")?.[0] ?? "";
  const ogType = (raw.meta.get("og:type")?.[0] ?? "").toLowerCase();
  let host = "";
  let path = "";
  try {
    if (url) ({ hostname: host, pathname: path } = new URL(url));
  } catch {
    // A relative or broken URL says nothing.
  }

  if (has(FORUM_TYPES) || FORUM_GENERATOR.test(generator)) return "forum";
  if (FORUM_HOST.test(host) || FORUM_PATH.test(path)) return "forum";
  // A Product without offers is the subject of a review or a service's rating snippet, and
  // products with offers on a page that says it is an article are what a buying guide or a
  // review recommends: the page is the article.
  const article = [...types].some(isArticleType);
  if ((products && offers && !article) || ogType === "product" || ogType === "og:product") {
    return "product";
  }
  if (has(LISTING_TYPES) && !(listOnly(types) && article)) return "listing";
  if (PRODUCT_PATH.test(path)) return "product";
  if (has(DOCUMENTATION_TYPES) || DOCUMENTATION_HOST.test(host) || DOCUMENTATION_PATH.test(path)) {
    return "documentation";
  }
  return "page";
}
