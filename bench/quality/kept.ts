/**
 * Where the boilerplate we keep comes from: for each page of the tuning part, the blocks of our
 * text whose words the reference does not have (pages with a reference text), or that hold a
 * `without` snippet (snippet-only pages), traced back to the element of the source that holds
 * them and grouped by what that element and its ancestors say they are (related teasers, author
 * boxes, share bars, captions, newsletter boxes, comments, tags, header or footer remnants).
 * The groups are for reading the data only: no extraction rule comes from these words.
 *
 * Run: node --import tsx bench/quality/kept.ts ../shared/bench/articles-dev [--examples N]
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { convertHtml } from "../../src/convert/html.js";
import type { DomElement } from "../../src/extract/dom.js";
import { parseDocument } from "../../src/extract/parse.js";
import { isHeldOut } from "./split.js";

const args = process.argv.slice(2);
const examplesAt = args.indexOf("--examples");
const examples = examplesAt >= 0 ? Number(args.splice(examplesAt, 2)[1]) : 3;
const dataDir = resolve(args[0] ?? "../shared/bench/articles-dev");

/** Python's `\w+` over lowercased text, as the metric counts words. */
const WORD = /[\p{L}\p{N}_]+/gu;
const words = (text: string) => text.toLowerCase().match(WORD) ?? [];
/** A block is kept boilerplate when fewer than this share of its words are in the reference. */
const FOREIGN_SHARE = 0.5;

/** Groups by the words of an element's tag, class and id, nearest ancestor first. */
const GROUPS: [string, RegExp][] = [
  ["comments", /comment|disqus|respon[sd]|reply|discussion/],
  [
    "related / teasers",
    /related|recommend|more-?(stories|articles|from)|read-?next|popular|trending|teaser|promo|outbrain|taboola|also/,
  ],
  ["share / social", /share|social|sharing|twitter|facebook|follow/],
  ["newsletter / subscribe", /newsletter|subscribe|signup|sign-up|cta|paywall|register/],
  ["author box / byline", /author|byline|bio|contributor|writer|profile/],
  ["caption / credit / media", /caption|credit|figure|figcaption|photo|image|media|gallery|video/],
  ["tags / categories", /\btags?\b|tag-|categor|topic|keyword|breadcrumb/],
  ["date / meta line", /date|time|meta|dateline|published|updated/],
  ["ads", /\bads?\b|advert|sponsor|dfp|banner/],
  ["navigation / header", /\bnav|menu|header|masthead|toolbar/],
  ["footer / legal", /footer|copyright|legal|disclaimer|colophon/],
  ["sidebar / aside", /sidebar|aside|rail|widget/],
];

interface Hit {
  group: string;
  tokens: number;
  page: string;
  text: string;
  path: string;
}

function ancestry(element: DomElement | null): string[] {
  const out: string[] = [];
  for (
    let el = element;
    el && el.nodeType === 1 && out.length < 12;
    el = el.parentNode as DomElement | null
  ) {
    const cls = (el.getAttribute("class") ?? "").trim().split(/\s+/).filter(Boolean).join(".");
    const id = el.getAttribute("id");
    out.push(`${el.localName}${id ? `#${id}` : ""}${cls ? `.${cls}` : ""}`);
  }
  return out;
}

function groupOf(path: string[]): string {
  for (const step of path) {
    const name = step.toLowerCase();
    for (const [group, re] of GROUPS) if (re.test(name)) return group;
  }
  return "other (no telling name)";
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** Elements whose text no reader sees (a JSON state blob repeats the article). */
const INVISIBLE = new Set(["script", "style", "noscript", "template", "head"]);

/** The deepest element whose text holds `needle`, found from the body down. */
function holder(body: DomElement, needle: string): DomElement | null {
  let found: DomElement | null = null;
  const stack: DomElement[] = [body];
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (INVISIBLE.has(el.localName)) continue;
    if (!squash(el.textContent ?? "").includes(needle)) continue;
    found = el;
    stack.length = 0;
    for (let child = el.firstElementChild; child; child = child.nextElementSibling) {
      stack.push(child);
    }
  }
  return found;
}

const hits: Hit[] = [];
let pages = 0;
let ourTokens = 0;
for (const file of readdirSync(join(dataDir, "ground-truth")).sort()) {
  const id = file.replace(/\.json$/, "");
  if (isHeldOut(id)) continue;
  const raw = JSON.parse(readFileSync(join(dataDir, "ground-truth", file), "utf8"));
  const gt = raw.ground_truth ?? {};
  const html = gunzipSync(readFileSync(join(dataDir, "html", `${id}.html.gz`))).toString("utf8");
  const ours = convertHtml(html, { url: raw.url, format: "text" }).content;
  pages++;
  ourTokens += words(ours).length;
  const root = parseDocument(html).documentElement;
  if (!root) continue;
  const body = root;
  /** Foreign blocks: the text to find in the source, and the words it costs. */
  const blocks: { text: string; tokens: number }[] = [];
  if (typeof gt.main_content === "string") {
    const reference = new Set(words(gt.main_content));
    for (const block of ours.split(/\n+/)) {
      const w = words(block);
      if (w.length === 0) continue;
      const known = w.filter((t) => reference.has(t)).length;
      if (known / w.length < FOREIGN_SHARE) blocks.push({ text: block, tokens: w.length });
    }
  } else {
    const hay = squash(ours).toLowerCase();
    for (const snippet of (gt.without ?? []) as string[]) {
      const s = squash(snippet).toLowerCase();
      if (!s || !hay.includes(s)) continue;
      // The snippet's own words: the block around it may be the article's.
      blocks.push({ text: snippet, tokens: words(snippet).length });
    }
  }
  for (const block of blocks) {
    const needle = squash(block.text).slice(0, 60);
    const path = ancestry(holder(body, needle));
    hits.push({
      group: groupOf(path),
      tokens: block.tokens,
      page: id,
      text: squash(block.text).slice(0, 100),
      path: path.slice(0, 5).join(" < "),
    });
  }
}

const byGroup = new Map<string, Hit[]>();
for (const hit of hits) byGroup.set(hit.group, [...(byGroup.get(hit.group) ?? []), hit]);
const total = hits.reduce((a, h) => a + h.tokens, 0);
console.log(
  `${pages} tuning pages, ${ourTokens} words kept, ${total} (${((100 * total) / ourTokens).toFixed(1)}%) in blocks the reference does not have or that hold a \`without\` snippet\n`,
);
for (const [group, list] of [...byGroup].sort(
  (a, b) => b[1].reduce((s, h) => s + h.tokens, 0) - a[1].reduce((s, h) => s + h.tokens, 0),
)) {
  const tokens = list.reduce((s, h) => s + h.tokens, 0);
  const onPages = new Set(list.map((h) => h.page)).size;
  console.log(`${group}: ${tokens} words in ${list.length} blocks on ${onPages} pages`);
  for (const h of [...list].sort((a, b) => b.tokens - a.tokens).slice(0, examples)) {
    console.log(`    ${h.page} (${h.tokens}) "${h.text}"  ← ${h.path}`);
  }
}
