/**
 * A thread told by its shape: sibling posts by several people that hold much of the page's
 * text, at an address no forum is known by, are extracted as a forum's (replies kept); teasers
 * with bylines, an article's sections with author boxes and a blog's few comments are not.
 */

import { describe, expect, it } from "vitest";
import { convertHtml } from "../../src/convert/html.js";
import type { DomElement } from "../../src/extract/dom.js";
import { parseDocument } from "../../src/extract/parse.js";
import { measureText } from "../../src/extract/stats.js";
import { looksLikeThread } from "../../src/extract/threads.js";

/** About `n` hundred characters of prose whose every sentence names `label`. */
function prose(label: string, n: number): string {
  return `${label} wrote this sentence, with a comma, as people do in a discussion. `.repeat(n);
}

/** A post by `who` (linked to their profile at `profile`), of about `n` hundred characters. */
function post(who: string, label: string, n: number, profile = `/people/${who}`): string {
  return `<article class="post"><a href="${profile}">${who}</a><p>${prose(label, n)}</p></article>`;
}

/** A thread: the question, then the replies in a section named like a blog's comments. */
function thread(profile?: (who: string) => string): string {
  const by = (who: string) => profile?.(who);
  return `<html><body><header><a href="/">Home</a></header><main>
    <h1>Which stove for winter camping?</h1>
    ${post("ann", "Question", 16, by("ann"))}
    <section class="replies">${post("bo", "Answer", 5, by("bo"))}${post("cy", "Advice", 5, by("cy"))}
    ${post("ann", "Thanks", 5, by("ann"))}</section></main></body></html>`;
}

function bodyOf(html: string): DomElement {
  let body = parseDocument(html).documentElement?.firstElementChild ?? null;
  while (body !== null && body.localName !== "body") body = body.nextElementSibling;
  if (body === null) throw new Error("no body");
  return body;
}

const isThread = (html: string) => {
  const body = bodyOf(html);
  return looksLikeThread(body, measureText(body));
};

describe("looksLikeThread", () => {
  it("keeps the replies of a thread at an address no forum is known by", () => {
    expect(isThread(thread())).toBe(true);
    const { content } = convertHtml(thread(), { url: "https://example.com/2024/11/stoves" });
    for (const kept of ["Question wrote", "Answer wrote", "Advice wrote", "Thanks wrote"]) {
      expect(content).toContain(kept);
    }
    // The same page with no links to its writers reads as a post under its comments.
    const anonymous = thread(() => "#");
    expect(isThread(anonymous)).toBe(false);
    const blog = convertHtml(anonymous, { url: "https://example.com/2024/11/stoves" }).content;
    expect(blog).toContain("Question wrote");
    expect(blog).not.toContain("Answer wrote");
  });

  it("takes writers linked by their pictures, but does not search a page without linked text", () => {
    const avatars = thread().replace(
      /<a href="(\/people\/\w+)">\w+<\/a>/g,
      '<a href="$1"><img src="/a.png" alt=""></a>',
    );
    expect(avatars).not.toBe(thread());
    expect(isThread(avatars)).toBe(true);
    expect(isThread(avatars.replace('<a href="/">Home</a>', "Home"))).toBe(false);
  });

  it("knows writers by the usual profile addresses", () => {
    for (const profile of [
      (who: string) => `https://example.com/u/${who}`,
      (who: string) => `/members/${who}.42/`,
      (who: string) => `/member.php?u=${who.length}${who}`,
      (who: string) => `https://social.example/@${who}`,
    ]) {
      expect(isThread(thread(profile)), profile("ann")).toBe(true);
    }
  });

  it("does not take teasers with bylines, whose text is mostly linked titles", () => {
    const card = (n: number, who: string) =>
      `<div class="card"><h3><a href="/2024/story-${n}">The ${n}th story of the week, told at length in its title</a></h3>
      <p>By <a href="/members/${who}">${who}</a>. A line.</p></div>`;
    const html = `<body><main>${[1, 2, 3, 4].map((n) => card(n, `writer${n}`)).join("")}</main></body>`;
    expect(isThread(html)).toBe(false);
  });

  it("does not take an article's sections, one of them the article, each with an author box", () => {
    const section = (who: string, n: number) =>
      `<section class="layout"><p>${prose("Story", n)}</p><a href="/people/${who}">${who}</a></section>`;
    const html = `<body>${section("ann", 30)}${section("bo", 2)}${section("cy", 2)}</body>`;
    expect(isThread(html)).toBe(false);
  });

  it("does not take one writer's posts in full, a blog's home page", () => {
    const html = `<body><main>${post("ann", "Monday", 5)}${post("ann", "Tuesday", 5)}${post("ann", "Friday", 5)}</main></body>`;
    expect(isThread(html)).toBe(false);
  });

  it("does not take an article's reviewed items, each linking to its reviewer as author", () => {
    const item = (who: string, label: string) =>
      `<section class="item"><h2>${label}</h2><p>${prose(label, 5)}</p><p>Reviewed by <a href="/author/${who}">${who}</a></p></section>`;
    const html = `<body><article>${item("ann", "First")}${item("bo", "Second")}${item("cy", "Third")}</article></body>`;
    expect(isThread(html)).toBe(false);
    expect(isThread(html.replaceAll("/author/", "/members/"))).toBe(true);
  });

  it("weighs the thread against the page without its site's header, footer and sidebars", () => {
    // A forum's menus, footer and "similar threads" sidebar hold two thirds of the page's text.
    const links = (n: number, path: string) =>
      Array.from({ length: n }, (_, i) => `<a href="/${path}/${i}">${path} entry ${i}</a>`).join(
        " ",
      );
    const chrome = (html: string) =>
      html
        .replace("<main>", `<nav>${links(60, "forums")}</nav><main>`)
        .replace(
          "</main>",
          `</main><aside><p>${prose("Sidebar", 20)}</p></aside><footer>${links(60, "help")}</footer>`,
        );
    expect(isThread(chrome(thread()))).toBe(true);
    // A layout's sidebar named so by its class is one too.
    const named = chrome(thread()).replace(/<(\/?)aside>/g, (_, end: string) =>
      end ? "</div>" : '<div class="p-body-sidebar">',
    );
    expect(isThread(named)).toBe(true);
    // The same text in the page's own blocks, not its chrome, outweighs the thread.
    const blocks = chrome(thread()).replace(/<(\/?)(?:nav|aside|footer)>/g, "<$1div>");
    expect(isThread(blocks)).toBe(false);
  });

  it("takes posts that quote and link, up to a third of their text in links", () => {
    const quoting = (who: string, label: string) =>
      `<article class="post"><a href="/people/${who}">${who}</a><p>${prose(label, 2)}
      <a href="/t/other-thread-about-stoves-and-fuel">a thread about stoves and fuel, with a long linked title</a></p></article>`;
    const html = `<body><main><h1>Stoves</h1>${["ann", "bo", "cy", "di"].map((w) => quoting(w, w)).join("")}</main></body>`;
    expect(isThread(html)).toBe(true);
  });

  it("does not take a post's comments, however lively, while they are not most of the page", () => {
    // The comments hold about a third of the text.
    const html = `<body><article><h1>Post</h1><p>${prose("Post", 40)}</p></article>
      <section class="comments">${post("bo", "Nice", 7)}${post("cy", "Great", 7)}${post("di", "Fine", 7)}</section></body>`;
    expect(isThread(html)).toBe(false);
  });
});
