/**
 * What an element's class and id can tell of it. Cleaning reads them for chrome ("sidebar",
 * "ad-slot"); this module hands it the names worth reading: without page builders' wrappers,
 * a heading's words for itself, and ids made from the element's own title, which say nothing
 * of what the element is.
 */

import { attr, type DomElement, isHeadingTag, textStart } from "./dom.js";

const WHITESPACE = /\s+/;

/**
 * Page builders wrap every block of a page, content included, in a "widget" (Elementor's
 * `elementor-widget-text-editor`): those class names say nothing about chrome.
 */
const PAGE_BUILDER_WIDGET = /\belementor-widget[\w-]*/gi;

/**
 * On a heading or inside one, "header" and "toc" name the heading itself (Divi's
 * `et_pb_module_header`, rustdoc's `code-header`, an accordion's `accordion-header`, mdBook's
 * `<h2><a class="header">`, a TOC plugin's `toc` marking the headings it lists), not the page's
 * header or a table of contents.
 */
const HEADING_OWN_WORDS = /(?<=^|[\s_-])(?:header|toc)(?=$|[\s_-])/gi;

/** A name of three or more words joined by hyphens, as generated from a heading. */
const SLUG_NAME = /^[\p{Ll}\p{N}]+(?:-[\p{Ll}\p{N}]+){2,}$/u;
/** How much of an element's text start is compared with its names. */
const SLUG_TEXT_CHARS = 200;
/** Runs of what is not a letter or digit, and hyphens at either end, for `slugOf`. */
const NOT_WORD_RUN = /[^\p{L}\p{N}]+/gu;
const EDGE_HYPHEN = /^-|-$/g;

/** A "header" that is part of a component's name… */
const COMPONENT_HEADER =
  /[a-z\d][_-]+header|header[_-]+(?:copy|description|text|title|content|image|intro)/i;
/** …unless the component is the page or its header's parts. */
const PAGE_HEADER =
  /(?:^|[_-])(?:site|global|main|top|page|primary|masthead|mobile|desktop|sticky|fixed|nav|navbar|app|layout|theme|wp|elementor|ast|td|tdb)[_-]+header|header[_-]+(?:wrap\w*|container|inner|nav\w*|menu|top|bar|main|logo|row|area|section|outer|links?|search|cart|account)(?:$|[_-])/i;
const HEADER_WORD = /header/gi;

/** Class and id of `el`, without page-builder widget names. */
export function namesOf(el: DomElement): string {
  const classes = attr(el, "class");
  const id = attr(el, "id");
  // Most elements have neither: no string to build.
  if (classes === "" && id === "") return "";
  return `${classes} ${id}`.replace(PAGE_BUILDER_WIDGET, "").trim();
}

/**
 * Class and id of `el` that can tell what it is: `namesOf`, less a heading's words for itself
 * (on the heading or on what it holds: `inHeading`) and names made from the element's own text.
 *
 * @example
 * // <section id="respond-to-review-comments"><h2>Respond to review comments</h2>…
 * telltaleNames(section, "section"); // ""
 */
export function telltaleNames(el: DomElement, tag: string, inHeading = false): string {
  const names = namesOf(el);
  if (names === "") return names;
  const own = inHeading || isHeadingTag(tag);
  return withoutTextSlugs(own ? names.replace(HEADING_OWN_WORDS, " ") : names, el);
}

/**
 * `names` with "header" taken out of the names of a component's parts (`section-header-copy`,
 * `PageSection_header`), but not of the page's header (`site-header`, `header-wrapper`).
 */
export function withoutComponentHeaders(names: string): string {
  return names
    .split(WHITESPACE)
    .map((name) =>
      COMPONENT_HEADER.test(name) && !isPageHeaderName(name) ? name.replace(HEADER_WORD, "") : name,
    )
    .join(" ");
}

/**
 * True when `name` names the page's header or its parts. In a BEM name (`block__element`) that
 * is so only when the block is the page's or its header's (`site-header__inner`,
 * `page__header`): `section-master__layout-header` is a section's.
 */
function isPageHeaderName(name: string): boolean {
  if (!PAGE_HEADER.test(name)) return false;
  const bem = name.indexOf("__");
  return bem <= 0 || PAGE_BLOCK.test(name.slice(0, bem));
}

/** Blocks of BEM names that are the page or its header (`site`, `page`, `site-header`, `header`). */
const PAGE_BLOCK =
  /^(?:site|page|global|main|app|layout|theme|wp|masthead|top|nav|navbar|l|c)(?:$|[_-](?:header$)?)|^header$/i;

/**
 * `names` without those generated from the element's own text: documentation and CMS pages give
 * a section or heading an id made of its title ("respond-to-review-comments",
 * "what-share-of-adolescents-…"), whose words say nothing about what the block is.
 */
function withoutTextSlugs(names: string, el: DomElement): string {
  // A slug has two hyphens: names without one hold none.
  if (!names.includes("-")) return names;
  const parts = names.split(WHITESPACE);
  const slugs = parts.filter((name) => SLUG_NAME.test(name));
  if (slugs.length === 0) return names;
  const text = textStart(el, SLUG_TEXT_CHARS);
  // A name made from the text has its first word in the text: most names (`wp-block-group`)
  // are ruled out without making the slug.
  const lower = text.toLowerCase();
  if (!slugs.some((name) => lower.includes(name.slice(0, name.indexOf("-"))))) return names;
  const start = slugOf(text);
  if (start === "") return names;
  const ownTitle = (name: string): boolean =>
    SLUG_NAME.test(name) && (start === name || start.startsWith(`${name}-`));
  return parts.filter((name) => !ownTitle(name)).join(" ");
}

/** Lower-case words of `text` joined by hyphens. */
function slugOf(text: string): string {
  return text.toLowerCase().replace(NOT_WORD_RUN, "-").replace(EDGE_HYPHEN, "");
}
