import { describe, expect, it } from "vitest";
import type { DomElement } from "../../src/extract/dom.js";
import { parseDocument } from "../../src/extract/parse.js";
import { classesHiddenByStyles } from "../../src/extract/style-sheets.js";

function bodyOf(html: string): DomElement {
  const root = parseDocument(html).documentElement;
  let body = root?.firstElementChild ?? null;
  while (body !== null && body.localName !== "body") body = body.nextElementSibling;
  if (body === null) throw new Error("no body");
  return body;
}

const hiddenBy = (css: string, where: "head" | "body" = "head") =>
  [
    ...classesHiddenByStyles(
      bodyOf(
        where === "head"
          ? `<head><style>${css}</style></head><body></body>`
          : `<body><style>${css}</style></body>`,
      ),
    ),
  ].sort();

describe("classesHiddenByStyles", () => {
  it("finds a class a rule hides on its own, in the head or the body", () => {
    expect(hiddenBy(".drawer { display: none }")).toEqual(["drawer"]);
    expect(hiddenBy(".compare,.hidden{color:red;display:none !important}", "body")).toEqual([
      "compare",
      "hidden",
    ]);
    expect(hiddenBy("@layer utilities { .d-none { display: none } }")).toEqual(["d-none"]);
  });

  it("leaves a class that a selector of more than the class hides, or that a rule shows", () => {
    expect(hiddenBy(".menu .drawer, div.x, .a.b { display: none }")).toEqual([]);
    expect(hiddenBy(".drawer { display: none } .drawer.open { display: block }")).toEqual([]);
    expect(hiddenBy(".drawer{display:none}.nav:hover .drawer{display:flex}")).toEqual([]);
    expect(
      hiddenBy(".mobile{display:none}@media (max-width: 40em){.mobile{display:block}}"),
    ).toEqual([]);
  });

  it("reads no rule inside a condition or a comment as hiding", () => {
    expect(hiddenBy("@media print { .ad { display: none } } .x { color: red }")).toEqual([]);
    expect(hiddenBy("@supports (display: grid) { .old { display: none } }")).toEqual([]);
    expect(hiddenBy("/* .gone { display: none } */ .kept { display: none }")).toEqual(["kept"]);
    expect(hiddenBy(".card { color: red; .x & { display: none } }")).toEqual([]);
  });

  it("reads the rule after a statement, and survives broken sheets", () => {
    expect(hiddenBy('@import url("a.css"); @charset "utf-8"; .tray{display:none}')).toEqual([
      "tray",
    ]);
    expect(hiddenBy(".a { display: none } } } .b { display: none")).toEqual(["a"]);
    expect(hiddenBy("")).toEqual([]);
  });

  it("ends a comment or a block left open with its sheet, and reads shows across sheets", () => {
    const sheets = (...css: string[]) =>
      [
        ...classesHiddenByStyles(
          bodyOf(`<head>${css.map((c) => `<style>${c}</style>`).join("")}</head><body></body>`),
        ),
      ].sort();
    expect(sheets(".a{display:none} /* open", ".b{display:none}")).toEqual(["a", "b"]);
    expect(sheets("@media print { .x { color: red }", ".y{display:none}")).toEqual(["y"]);
    expect(sheets(".tray{display:none}", ".open .tray{display:block}")).toEqual([]);
  });

  it("reads a sheet inside <noscript>, as the page is read without scripts, not in <template>", () => {
    const html = `<head><noscript><style>.lazyload{display:none}</style></noscript></head>
      <body><template><style>.card{display:none}</style></template></body>`;
    expect([...classesHiddenByStyles(bodyOf(html))]).toEqual(["lazyload"]);
  });
});
