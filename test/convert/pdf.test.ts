import { execFile } from "node:child_process";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ConvertOptions, convertBody } from "../../src/convert/index.js";
import { convertPdf, MAX_PDF_PAGES } from "../../src/convert/pdf.js";
import { isWebFetchError, type WebFetchError } from "../../src/errors.js";
import { buildPdf, layout, type PdfText } from "../helpers/pdf.js";
import { failure, type TestWeb, testWeb } from "../helpers/web.js";

const options: ConvertOptions = {
  url: "https://example.test/report.pdf",
  format: "markdown",
  extract: "main",
};

/** Two pages: a title, sections, a paragraph running on across the page break, a page number. */
function reportPdf(): Uint8Array {
  const first: PdfText[] = layout([
    { lines: ["Annual Report"], size: 24 },
    {
      lines: [
        "This report describes the year in brief. It covers the compu-",
        "tation of the results and the Franco-",
        "German project in some detail.",
      ],
    },
    { lines: ["Methods"], size: 16 },
    { lines: ["We measured everything twice and wrote", "it all down. The paragraph goes on"] },
  ]);
  first.push({ text: "1", x: 300, y: 40, size: 10 });
  const second: PdfText[] = layout([
    { lines: ["to the second page without a break."] },
    { lines: ["Results"], size: 16 },
    { lines: ["The results were good."] },
  ]);
  second.push({ text: "2", x: 300, y: 40, size: 10 });
  return buildPdf({
    pages: [first, second],
    info: {
      Title: "  Annual Report 2026 ",
      Author: "Ada Lovelace",
      CreationDate: "D:20260102030405+01'00'",
    },
  });
}

/** A PDF converted through convertBody, as a PDF body arrives from the pipeline. */
function convert(bytes: Uint8Array, overrides: Partial<ConvertOptions> = {}) {
  return convertBody(bytes, "application/pdf", { ...options, ...overrides });
}

async function parseFailure(promise: Promise<unknown>): Promise<WebFetchError> {
  const error = await promise.catch((e: unknown) => e);
  if (!isWebFetchError(error)) throw new Error(`expected a WebFetchError, got ${String(error)}`);
  return error;
}

describe("PDF: text", () => {
  it("reads the text of a one-page PDF", async () => {
    const bytes = buildPdf({ pages: [layout([{ lines: ["Hello from a PDF (really)."] }])] });
    const doc = await convert(bytes);
    expect(doc.content).toBe("Hello from a PDF (really).");
    expect(doc.contentType).toBe("application/pdf");
    expect(doc.pages).toBe(1);
    expect(doc).not.toHaveProperty("charset");
    expect(doc).not.toHaveProperty("title");
  });

  it("reads every page in order, continuing a paragraph across the page break", async () => {
    const doc = await convert(reportPdf());
    expect(doc.pages).toBe(2);
    expect(doc.content).toBe(
      [
        "# Annual Report",
        "This report describes the year in brief. It covers the computation of the results and the Franco-German project in some detail.",
        "## Methods",
        "We measured everything twice and wrote it all down. The paragraph goes on to the second page without a break.",
        "## Results",
        "The results were good.",
      ].join("\n\n"),
    );
  });

  it("keeps the pages apart from each other's text, and prints no page markers", async () => {
    const pages = [1, 2, 3].map((n) => layout([{ lines: [`Chapter text number ${n}.`] }]));
    const doc = await convert(buildPdf({ pages }));
    expect(doc.pages).toBe(3);
    expect(doc.content).toBe(
      "Chapter text number 1.\n\nChapter text number 2.\n\nChapter text number 3.",
    );
    expect(doc.content).not.toMatch(/page/i);
  });

  it("joins the lines of a paragraph and breaks paragraphs at larger gaps", async () => {
    const page = layout([
      { lines: ["The first paragraph has", "two lines\x97", "and a dash."] },
      { lines: ["The second one has a well-", "Known compound and a hyphen-", "ated word."] },
    ]);
    const doc = await convert(buildPdf({ pages: [page] }));
    expect(doc.content).toBe(
      "The first paragraph has two lines\u2014and a dash.\n\nThe second one has a well-Known compound and a hyphenated word.",
    );
  });

  it("makes headings only of short lines set clearly larger, ranked by size", async () => {
    const long = Array.from({ length: 4 }, (_, i) => `Large print line ${i + 1} of 4`);
    const page = layout([
      { lines: ["Title"], size: 28 },
      { lines: ["Body text sets the body size for the document, being the most text."] },
      { lines: ["Section"], size: 18 },
      { lines: ["More body text, in the same size as the body text above it."] },
      { lines: ["Subsection"], size: 14 },
      { lines: ["Slightly larger"], size: 12.5 },
      { lines: long, size: 18 },
    ]);
    const doc = await convert(buildPdf({ pages: [page] }));
    const lines = doc.content.split("\n\n");
    expect(lines.slice(0, 5)).toEqual([
      "# Title",
      "Body text sets the body size for the document, being the most text.",
      "## Section",
      "More body text, in the same size as the body text above it.",
      "### Subsection",
    ]);
    // Barely larger than the body is not a heading; a long block of large print is a paragraph.
    expect(lines[5]).toBe("Slightly larger");
    expect(lines[6]).toBe(long.join(" "));
  });

  it("renders bullets and numbers as lists and escapes what would read as Markdown", async () => {
    const page = layout([
      { lines: ["\x95 first item", "\x95 second item that wraps onto", "the next line"] },
      { lines: ["1. Scope of the work", "2. Terms used"] },
      { lines: ["# is how a hash sign looks at the start of a line."] },
      { lines: ["2026. That was the year."] },
      { lines: ["> not a quote"] },
    ]);
    const doc = await convert(buildPdf({ pages: [page] }));
    expect(doc.content).toBe(
      "- first item\n- second item that wraps onto the next line\n\n1. Scope of the work\n2. Terms used\n\n\\# is how a hash sign looks at the start of a line.\n\n2026\\. That was the year.\n\n\\> not a quote",
    );
  });

  it('has no Markdown syntax with format: "text"', async () => {
    const doc = await convert(reportPdf(), { format: "text" });
    expect(doc.content).toContain("Annual Report\n\nThis report describes the year");
    expect(doc.content).toContain("Methods\n\nWe measured");
    expect(doc.content).not.toMatch(/^#/m);
    expect(doc.content).not.toContain("\\");
  });

  it("says when a PDF has no text to read", async () => {
    const doc = await convert(buildPdf({ pages: [[]] }));
    expect(doc.pages).toBe(1);
    expect(doc.content).toBe("[This PDF has no text layer; its pages may be scanned images.]");
  });

  it(`reads at most ${MAX_PDF_PAGES} pages and says so`, async () => {
    const pages = Array.from({ length: MAX_PDF_PAGES + 2 }, (_, i) => [
      { text: `Text of page ${i + 1}.`, x: 72, y: 720 },
    ]);
    const doc = await convertPdf(buildPdf({ pages }));
    expect(doc.pages).toBe(MAX_PDF_PAGES + 2);
    expect(doc.content).toContain(`Text of page ${MAX_PDF_PAGES}.`);
    expect(doc.content).not.toContain(`Text of page ${MAX_PDF_PAGES + 1}.`);
    expect(doc.content).toMatch(
      new RegExp(
        `\\[Only the first ${MAX_PDF_PAGES} of ${MAX_PDF_PAGES + 2} pages were converted\\.\\]$`,
      ),
    );
  });
});

describe("PDF: metadata", () => {
  it("takes title, author and date from the Info dictionary", async () => {
    const doc = await convert(reportPdf());
    expect(doc.title).toBe("Annual Report 2026");
    expect(doc.author).toBe("Ada Lovelace");
    expect(doc.publishedAt).toBe("2026-01-02T02:04:05Z");
  });

  it("prefers XMP, and omits empty and placeholder values", async () => {
    const xmp = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
<xmp:CreateDate>2025-05-06T07:08:09+02:00</xmp:CreateDate>
<dc:title><rdf:Alt>
  <rdf:li xml:lang="x-default">XMP Title &amp; more</rdf:li>
  <rdf:li xml:lang="fr">Titre XMP</rdf:li>
</rdf:Alt></dc:title>
<dc:creator><rdf:Seq><rdf:li>Grace Hopper</rdf:li><rdf:li>Alan Turing</rdf:li></rdf:Seq></dc:creator>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`;
    const page = layout([{ lines: ["Text."] }]);
    const withXmp = await convert(
      buildPdf({ pages: [page], info: { Title: "Info Title", Author: "Info Author" }, xmp }),
    );
    expect(withXmp.title).toBe("XMP Title & more");
    expect(withXmp.author).toBe("Grace Hopper, Alan Turing");
    expect(withXmp.publishedAt).toBe("2025-05-06T05:08:09Z");

    const empty = await convert(
      buildPdf({ pages: [page], info: { Title: "   ", Author: "", CreationDate: "yesterday" } }),
    );
    expect(empty).not.toHaveProperty("title");
    expect(empty).not.toHaveProperty("author");
    expect(empty).not.toHaveProperty("publishedAt");

    const office = await convert(
      buildPdf({ pages: [page], info: { Title: "Microsoft Word - Budget plan" } }),
    );
    expect(office.title).toBe("Budget plan");
    const untitled = await convert(buildPdf({ pages: [page], info: { Title: "Untitled" } }));
    expect(untitled).not.toHaveProperty("title");
  });
});

describe("PDF: errors", () => {
  it("refuses a damaged file with PARSE_ERROR and a reason", async () => {
    const garbage = new TextEncoder().encode("%PDF-1.4\nthis is not a PDF at all\n%%EOF\n");
    const error = await parseFailure(convert(garbage));
    expect(error.code).toBe("PARSE_ERROR");
    expect(error.retryable).toBe(false);
    expect(error.message).toBe("Could not read the PDF: invalid PDF structure");

    const bytes = reportPdf();
    const truncated = await parseFailure(convert(bytes.slice(0, 200)));
    expect(truncated.code).toBe("PARSE_ERROR");
    expect(truncated.message).toMatch(/^Could not read the PDF: \S/);
  });

  it("refuses a file labelled PDF that is not one", async () => {
    const error = await parseFailure(convert(new TextEncoder().encode("<html>nope</html>")));
    expect(error.code).toBe("PARSE_ERROR");
    expect(error.message).toMatch(/^Could not read the PDF: /);
  });

  it("refuses a password-protected file", async () => {
    const bytes = buildPdf({ pages: [layout([{ lines: ["Secret."] }])], encrypt: true });
    const error = await parseFailure(convert(bytes));
    expect(error.code).toBe("PARSE_ERROR");
    expect(error.message).toBe("Could not read the PDF: it is encrypted and needs a password");
  });

  it("prints nothing while reading a messy file (stdout may carry a protocol)", async () => {
    // An unknown font that is not embedded, unknown operators, and offsets the edits made stale.
    const messy = Buffer.from(buildPdf({ pages: [layout([{ lines: ["Messy text"] }])] }))
      .toString("latin1")
      .replace("/BaseFont /Helvetica", "/BaseFont /NoSuchFont-Bold /FontDescriptor 99 0 R")
      .replace("Tj ET", "Tj BOGUS 1 2 3 XYZ ET");
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((name) =>
      vi.spyOn(console, name).mockImplementation(() => undefined),
    );
    try {
      const doc = await convert(new Uint8Array(Buffer.from(messy, "latin1")));
      expect(doc.content).toBe("Messy text");
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("leaves the caller's buffer intact (pdf.js detaches what it is given)", async () => {
    const bytes = reportPdf();
    const length = bytes.byteLength;
    await convert(bytes);
    expect(bytes.byteLength).toBe(length);
  });
});

describe("PDF: loading", () => {
  it("does not load unpdf when the convert module is imported", async () => {
    // A resolve hook that refuses "unpdf": importing the convert code must still succeed.
    const hook = `export async function resolve(specifier, context, next) {
      if (specifier === "unpdf") throw new Error("unpdf was requested");
      return next(specifier, context);
    }`;
    const register = `import { register } from "node:module";
      register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
    const script = `await import("./src/convert/index.ts");
      console.log("convert loaded");
      await import("unpdf").catch((e) => console.log(e.message));`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        "--import",
        "tsx",
        "--import",
        `data:text/javascript,${encodeURIComponent(register)}`,
        "--input-type=module",
        "-e",
        script,
      ],
      { cwd: fileURLToPath(new URL("../../", import.meta.url)) },
    );
    expect(stdout.trim().split("\n")).toEqual(["convert loaded", "unpdf was requested"]);
  });
});

describe("PDF: through the pipeline", () => {
  let server: Server;
  let t: TestWeb;
  const url = (path: string) => `http://pdf.test:${(server.address() as AddressInfo).port}${path}`;

  beforeAll(async () => {
    const pdf = reportPdf();
    server = createServer((req, res) => {
      const [type, body]: [string, Uint8Array] =
        req.url === "/report.pdf"
          ? ["application/pdf", pdf]
          : req.url === "/download"
            ? ["application/octet-stream", pdf]
            : ["application/pdf", new TextEncoder().encode("%PDF-1.7\ngarbage")];
      res.writeHead(200, { "content-type": type, "content-length": body.byteLength });
      res.end(body);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    t = testWeb(undefined, {
      allowAddresses: [`127.0.0.1:${(server.address() as AddressInfo).port}`],
    });
  });

  afterAll(async () => {
    await t?.web.close();
    server?.close();
    expect(t?.recorder.refused).toEqual([]);
  });

  it("returns a PDF served as application/pdf as Markdown with metadata", async () => {
    const r = await t.web.fetch(url("/report.pdf"));
    expect(r.contentType).toBe("application/pdf");
    expect(r).not.toHaveProperty("charset");
    expect(r.title).toBe("Annual Report 2026");
    expect(r.author).toBe("Ada Lovelace");
    expect(r.content).toMatch(/^# Annual Report\n\nThis report describes/);
    expect(r.content).toContain("## Results");
    expect(r.truncated).toBe(false);
    expect(r.pages).toBe(2);
  });

  it("sniffs a PDF served as application/octet-stream", async () => {
    const r = await t.web.fetch(url("/download"), { format: "text" });
    expect(r.contentType).toBe("application/pdf");
    expect(r.content).toMatch(/^Annual Report\n\nThis report describes/);
    expect(r.pages).toBe(2);
  });

  it("gives its text as raw, with a warning that a PDF has no text source", async () => {
    const raw = await t.web.fetch(url("/report.pdf"), { format: "raw" });
    const text = await t.web.fetch(url("/report.pdf"), { format: "text" });
    expect(raw.format).toBe("raw");
    expect(raw.content).toBe(text.content);
    expect(raw.warnings).toEqual([
      "A PDF has no text document to return as served; raw gives its extracted text instead",
    ]);
    expect(text.warnings).toBeUndefined();
    const html = await t.web.fetch(url("/report.pdf"), { format: "html" });
    expect(html.content).toMatch(/^<h1>Annual Report<\/h1>\n<p>This report describes/);
    expect(html.warnings).toBeUndefined();
  });

  it("fails a damaged PDF with PARSE_ERROR from the conversion thread", async () => {
    const error = await failure(t.web.fetch(url("/broken.pdf")));
    expect(error.code).toBe("PARSE_ERROR");
    expect(error.message).toBe("Could not read the PDF: invalid PDF structure");
  });
});
