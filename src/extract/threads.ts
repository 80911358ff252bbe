/**
 * Tells a discussion thread by its shape, whatever its address or software: much of the page's
 * text (its site's header, footer, menus and sidebars aside) sits in three or more sibling blocks
 * of one kind, written by at least two people (each block links to its writer's profile), with
 * little of their text in links. Teaser cards with
 * bylines are mostly linked titles, and an article's comments are rarely most of its page.
 */

import { attr, type DomElement, type DomNode, walkElements } from "./dom.js";
import { chromeText, type StatsMap } from "./stats.js";

/**
 * Links to a member's page: `/u/name`, `/users/42`, `/members/name.42/`, `/profile/…`,
 * `/people/…`, `/@name`, and the profile scripts of PHP forums. Not `/author/…`: an article's
 * bylines link there, one per teaser or per reviewed item, and forums do not.
 */
const PROFILE_HREF =
  /\/(?:u|users?|members?|profiles?|people)(?:[/\-?=.#]|$)|\/@[\w.-]+\/?$|memberlist\.php\?mode=viewprofile|(?:member|profile)\.php|showuser=|[?&]u=\d/i;
/** Fewest posts, and fewest writers, of a thread. */
const MIN_POSTS = 3;
const MIN_WRITERS = 2;
/** Shortest post counted: a name and a date are not one. */
const MIN_POST_CHARS = 20;
/**
 * Share of the page's text from which its posts are the page: less is a page with comments
 * under it (a list, a review), however lively.
 */
const MIN_THREAD_SHARE = 0.4;
/**
 * Link share of the posts' text from which they are teasers, not posts (whose writers' names,
 * quotes and mentions are links too).
 */
const MAX_POST_LINK_SHARE = 0.35;
/**
 * Share of the posts' text one post may hold: sections of a page's layout, each with a byline or
 * an author box, are one long article and a few short blocks.
 */
const MAX_POST_SHARE = 0.6;
/** Most profile links read, and levels climbed from each: bounds for a page of thousands. */
const MAX_PROFILE_LINKS = 2000;
const MAX_CLIMB = 40;

/** Sibling blocks of one kind under one parent, with the writers they link to. */
interface Posts {
  members: Set<DomElement>;
  writers: Set<string>;
}

/**
 * True when much of `body`'s text (MIN_THREAD_SHARE) is posts of a thread, as `stats`, a
 * measurement of `body`, counts it.
 *
 * @example
 * if (pageType === "page" && looksLikeThread(body, measureText(body))) pageType = "forum";
 */
export function looksLikeThread(body: DomElement, stats: StatsMap): boolean {
  const measured = stats.get(body);
  const total = measured?.chars ?? 0;
  // Writers' names are linked text: a page without any is no thread, and is not searched.
  const linked = (measured?.linkChars ?? 0) > 0;
  const thread = linked ? threadPosts(body, stats) : undefined;
  if (thread === undefined || thread.links >= thread.chars * MAX_POST_LINK_SHARE) return false;
  if (thread.chars >= total * MIN_THREAD_SHARE) return true;
  // The site's header, footer, menus and sidebars are not the page a thread must fill.
  const chrome = chromeText(body, stats, thread.posts);
  return thread.chars >= (total - chrome.chars) * MIN_THREAD_SHARE;
}

/** A thread's posts, as threadPosts() finds them. */
export interface ThreadPosts {
  /** The posts, in document order. */
  posts: DomElement[];
  /** Their text, and how much of it is in links. */
  chars: number;
  links: number;
  /** Every link to a writer's profile below the root searched. */
  profiles: ReadonlySet<DomElement>;
}

/**
 * The largest set of sibling blocks of one kind under `root`, by at least two writers, none of
 * them most of the set's text: the posts of a thread when `root` holds one. `stats` is a
 * measurement of `root`.
 */
export function threadPosts(root: DomElement, stats: StatsMap): ThreadPosts | undefined {
  const profiles: DomElement[] = [];
  walkElements(root, (el) => {
    if (el.localName === "a" && PROFILE_HREF.test(attr(el, "href"))) profiles.push(el);
    return profiles.length < MAX_PROFILE_LINKS;
  });
  if (profiles.length < MIN_WRITERS) return undefined;
  // Each profile link makes every ancestor's child on its way up a candidate post of the kind
  // (tag and classes) that child is, among that ancestor's children.
  const groups = new Map<DomNode, Map<string, Posts>>();
  const kinds = new Map<DomElement, string[]>();
  for (const link of profiles) {
    const writer = attr(link, "href").replace(/#.*$/, "").replace(/\/$/, "").toLowerCase();
    let child: DomElement = link;
    for (let depth = 0; depth < MAX_CLIMB && child !== root; depth++) {
      const parent = child.parentNode;
      if (parent === null) break;
      let childKinds = kinds.get(child);
      if (childKinds === undefined) {
        childKinds = kindsOf(child);
        kinds.set(child, childKinds);
      }
      let byKind = groups.get(parent);
      if (byKind === undefined) {
        byKind = new Map();
        groups.set(parent, byKind);
      }
      for (const kind of childKinds) {
        let posts = byKind.get(kind);
        if (posts === undefined) {
          posts = { members: new Set(), writers: new Set() };
          byKind.set(kind, posts);
        }
        posts.members.add(child);
        posts.writers.add(writer);
      }
      child = parent as DomElement;
    }
  }
  // The largest set of such blocks is the thread, or the page is none: when it is teasers or a
  // table of users, a smaller set beside it is a sidebar's.
  const linked = new Set(profiles);
  let best: ThreadPosts | undefined;
  for (const byKind of groups.values()) {
    for (const { members, writers } of byKind.values()) {
      if (members.size < MIN_POSTS || writers.size < MIN_WRITERS) continue;
      let chars = 0;
      let links = 0;
      const posts: DomElement[] = [];
      let largest = 0;
      for (const member of members) {
        const s = stats.get(member);
        if (s === undefined || s.chars < MIN_POST_CHARS) continue;
        posts.push(member);
        chars += s.chars;
        links += s.linkChars;
        largest = Math.max(largest, s.chars);
      }
      const thread = posts.length >= MIN_POSTS && largest <= chars * MAX_POST_SHARE;
      if (thread && chars > (best?.chars ?? 0)) best = { posts, chars, links, profiles: linked };
    }
  }
  return best;
}

/**
 * The kinds an element is of: its tag with each of its classes but those with a number
 * (`post-123`, `bg1`), or its tag alone. Posts differ in a class or two (`Alt`, `odd`, `first`).
 */
function kindsOf(el: DomElement): string[] {
  const names = lastingClasses(el);
  return names.length === 0 ? [el.localName] : names.map((name) => `${el.localName}.${name}`);
}

/**
 * An element's classes but those with a number (`post-123`, `bg1`), which each post has its own
 * of: what the posts of one thread share.
 */
export function lastingClasses(el: DomElement): string[] {
  const className = attr(el, "class");
  return className === "" ? [] : className.split(/\s+/).filter((name) => !/\d/.test(name));
}
