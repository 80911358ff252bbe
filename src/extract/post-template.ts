/**
 * A forum's post template: what every post of a thread repeats around its writer's words. The
 * controls ("Reply With Quote", "Report", "Permalink"), the author panel's counters and labels
 * ("Posts: 1,234", "Join Date: …") and the badges stand in the same place in each post with the
 * same text, whatever the forum's software or language; the writer's name, the post's date and
 * its words differ from post to post.
 */

import { normalizeDate } from "./date.js";
import { attr, type DomElement, type DomNode, isElement, textOf, walk } from "./dom.js";
import { measureText } from "./stats.js";
import { lastingClasses, threadPosts } from "./threads.js";

/** Longest text read as part of the template: a label with its value, a row of controls. */
const MAX_TEMPLATE_CHARS = 60;
/** Share of the posts a text must stand in, in the same place, to be the template's. */
const MIN_POST_SHARE = 0.5;
/** Fewest posts that make a template. */
const MIN_POSTS = 3;
/** Numbers, with their separators: counters differ from post to post, their labels do not. */
const NUMBER = /\d[\d,.]*/g;
/** A label before its value ("Join Date: Mar 2013", "Location: Ohio"), without digits. */
const LABEL = /^([^:\d]{1,30}):/;
/** A year or a time of day: a date, which readers of a thread keep with each post. */
const DATE_PART = /\b(?:19|20)\d\d\b|\d:\d\d/;

/** Where in its post an element stands, and the posts it stands there in with that text. */
interface Occurrences {
  posts: Set<number>;
  elements: DomElement[];
}

/**
 * Removes from `root`, in place, the short texts that stand in the same place, with the same
 * text (numbers aside), or the same label, in at least half the posts of the thread `root` holds.
 * Dates and the links to writers stay.
 *
 * @example
 * if (pageType === "forum") removePostTemplate(root);
 */
export function removePostTemplate(root: DomElement): void {
  const stats = measureText(root);
  const thread = threadPosts(root, stats);
  if (thread === undefined) return;
  const { posts, profiles } = thread;
  // A writer's link and what holds it are the post's own, not its template.
  const holdsProfile = new Set<DomNode>();
  for (const link of profiles) {
    for (let node: DomNode | null = link; node !== null && node !== root; node = node.parentNode) {
      holdsProfile.add(node);
    }
  }
  const seen = new Map<string, Occurrences>();
  const note = (key: string, post: number, el: DomElement) => {
    let occurrences = seen.get(key);
    if (occurrences === undefined) {
      occurrences = { posts: new Set(), elements: [] };
      seen.set(key, occurrences);
    }
    occurrences.posts.add(post);
    occurrences.elements.push(el);
  };
  posts.forEach((post, i) => {
    // Each open element's place: its parent's place and its own kind.
    const places: string[] = [""];
    walk(
      post,
      (node) => {
        // A mention of another writer inside a post's words is no more template than its name.
        if (!isElement(node) || profiles.has(node)) return false;
        const place = `${places[places.length - 1]}>${kindOf(node)}`;
        places.push(place);
        const chars = stats.get(node)?.chars ?? 0;
        if (chars === 0 || chars > MAX_TEMPLATE_CHARS || holdsProfile.has(node)) return true;
        const text = textOf(node);
        if (text === "") return true;
        const label = LABEL.exec(text);
        if (label) note(`${place}|${label[1]!.toLowerCase()}:`, i, node);
        if (!DATE_PART.test(text) && normalizeDate(text) === undefined) {
          note(`${place}|${text.toLowerCase().replace(NUMBER, "#")}`, i, node);
        }
        return true;
      },
      () => places.pop(),
    );
  });
  const least = Math.max(MIN_POSTS, Math.ceil(posts.length * MIN_POST_SHARE));
  const doomed = new Set<DomElement>();
  for (const { posts: standing, elements } of seen.values()) {
    if (standing.size >= least) for (const el of elements) doomed.add(el);
  }
  for (const el of doomed) el.remove();
}

/** An element's place in its post, one level: its tag and classes but those with a number. */
function kindOf(el: DomElement): string {
  if (attr(el, "class") === "") return el.localName;
  return `${el.localName}.${lastingClasses(el).sort().join(".")}`;
}
