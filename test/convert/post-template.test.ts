/**
 * A forum's post template goes, in whatever language and software: what every post repeats in
 * the same place (controls, the author panel's labels and counters, a member title), while each
 * post's writer, date and words stay.
 */

import { describe, expect, it } from "vitest";
import { convertHtml } from "../../src/convert/html.js";
import { textOf } from "../../src/extract/dom.js";
import { parseDocument } from "../../src/extract/parse.js";
import { removePostTemplate } from "../../src/extract/post-template.js";

/** A German board's post by `who`, written on `day`, saying `words`. */
function post(who: string, day: number, words: string, posts: number): string {
  return `<article class="beitrag beitrag-${day}">
    <div class="autor"><span class="von">von <a href="/members/${who}/">${who}</a></span>
      <span class="rang">Erfahrenes Mitglied</span>
      <span class="zahl">${posts.toLocaleString("en-US")} Beiträge</span>
      <div class="seit">Dabei seit: März ${2010 + day}</div></div>
    <div class="inhalt"><time>${day}. Januar 2024</time>
      <p>${words} Dazu kommt noch ein ganzer Satz, damit der Beitrag wie einer aussieht.</p></div>
    <div class="aktionen"><a href="#r${day}">Antworten</a> <a href="#z${day}">Zitieren</a> <a href="#m${day}">Melden</a></div>
  </article>`;
}

const THREAD = `<html><body><main><h1>Welcher Kocher für den Winter?</h1><div class="beitraege">
  ${post("anna", 3, "Ich suche einen Kocher für Touren im Schnee.", 12)}
  ${post("bert", 4, "Nimm einen Benzinkocher, Gas wird bei Kälte schwach.", 1534)}
  ${post("anna", 5, "Mit <a href='/members/bert/'>@bert</a> einverstanden, und nimm Ersatzteile mit.", 87)}
  ${post("anna", 6, "Danke euch, ich nehme den Benzinkocher.", 13)}
</div></main></body></html>`;

describe("removePostTemplate", () => {
  it("drops what every post repeats and keeps each post's writer, date and words", () => {
    const { content } = convertHtml(THREAD, { url: "https://forum.example.de/threads/kocher.42/" });
    // Anna wrote three posts of four: her name stands in the same place in each, and stays.
    for (const kept of [
      "von [anna]",
      "von [bert]",
      "Schnee",
      "Benzinkocher, Gas",
      "@bert",
      "Ersatzteile",
    ]) {
      expect(content).toContain(kept);
    }
    expect(content.match(/Januar 2024/g)).toHaveLength(4);
    for (const gone of [
      "Antworten",
      "Zitieren",
      "Melden",
      "Erfahrenes",
      "Beiträge:",
      "1,534",
      "seit",
    ]) {
      expect(content).not.toContain(gone);
    }
  });

  it("keeps what fewer than three posts, or fewer than half of them, show in one place", () => {
    const titled = (day: number, title: string) =>
      post(`p${day}`, day, "Ein Beitrag.", day).replace("Erfahrenes Mitglied", title);
    const four = parseDocument(
      `<body><div>${[titled(3, "Moderator"), titled(4, "Moderator"), titled(5, "Gast"), titled(6, "Neu")].join("")}</div></body>`,
    );
    removePostTemplate(four.documentElement!);
    expect(textOf(four.documentElement!)).toContain("Moderator");
    expect(textOf(four.documentElement!)).not.toContain("Zitieren");

    const titles = ["Gast", "Neu", "Gast", "Alt", "Gast", "Profi", "Neu", "Alt"];
    const eight = parseDocument(
      `<body><div>${titles.map((title, i) => titled(i + 3, title)).join("")}</div></body>`,
    );
    removePostTemplate(eight.documentElement!);
    expect(textOf(eight.documentElement!)).toContain("Gast");
  });
});
