/**
 * A minimal PDF writer for tests, so no PDF fixture has to be checked in: numbered objects, an
 * xref table with exact byte offsets, Helvetica from the standard 14 fonts (no font file), and
 * text placed with `BT /F1 <size> Tf <x> <y> Td (<text>) Tj ET`. Text is Latin-1 only.
 */

/** One run of text at a position (PDF points, origin bottom-left). */
export interface PdfText {
  text: string;
  x: number;
  y: number;
  /** Font size in points. @default 12 */
  size?: number;
}

/** The document's Info dictionary; CreationDate in PDF form (`D:20260102030405Z`). */
export interface PdfInfo {
  Title?: string;
  Author?: string;
  Subject?: string;
  CreationDate?: string;
}

export interface PdfSpec {
  /** Each page's text runs. */
  pages: readonly (readonly PdfText[])[];
  info?: PdfInfo;
  /** XMP metadata stream (raw XML), referenced from the catalog. */
  xmp?: string;
  /**
   * Adds a Standard security handler whose user password is not empty, so the file cannot be
   * opened without one (the content itself stays unencrypted: a reader stops before it).
   */
  encrypt?: boolean;
}

/** An Encrypt dictionary whose /U matches no empty password, and the /ID it needs. */
const ENCRYPT =
  ` /Encrypt << /Filter /Standard /V 1 /R 2 /O <${"11".repeat(32)}> /U <${"22".repeat(32)}> /P -4 >>` +
  ` /ID [<${"ab".repeat(16)}> <${"ab".repeat(16)}>]`;

/** US Letter, points. */
const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;

/** A PDF string literal: backslash, parentheses escaped. */
function literal(text: string): string {
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/**
 * Builds a PDF file from pages of positioned text.
 *
 * @example
 * const bytes = buildPdf({ pages: [[{ text: "Hello", x: 72, y: 720, size: 24 }]] });
 */
export function buildPdf(spec: PdfSpec): Uint8Array {
  // Object numbers: 1 catalog, 2 pages, 3 font, 4 info, 5 XMP, then page + content pairs.
  const objects = new Map<number, string>();
  const firstPage = 6;
  const kids = spec.pages.map((_, i) => `${firstPage + i * 2} 0 R`);
  objects.set(
    1,
    `<< /Type /Catalog /Pages 2 0 R${spec.xmp === undefined ? "" : " /Metadata 5 0 R"} >>`,
  );
  objects.set(2, `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${spec.pages.length} >>`);
  objects.set(
    3,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  );
  const info = Object.entries(spec.info ?? {})
    .map(([key, value]) => `/${key} ${literal(value)}`)
    .join(" ");
  objects.set(4, `<< ${info} >>`);
  if (spec.xmp !== undefined) {
    objects.set(
      5,
      `<< /Type /Metadata /Subtype /XML /Length ${spec.xmp.length} >>\nstream\n${spec.xmp}\nendstream`,
    );
  }
  spec.pages.forEach((runs, i) => {
    const page = firstPage + i * 2;
    const stream = runs
      .map((run) => `BT /F1 ${run.size ?? 12} Tf ${run.x} ${run.y} Td ${literal(run.text)} Tj ET`)
      .join("\n");
    objects.set(
      page,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
        `/Resources << /Font << /F1 3 0 R >> >> /Contents ${page + 1} 0 R >>`,
    );
    objects.set(page + 1, `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });

  const size = firstPage + spec.pages.length * 2;
  let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  for (let n = 1; n < size; n++) {
    const body = objects.get(n);
    if (body === undefined) continue;
    offsets[n] = out.length;
    out += `${n} 0 obj\n${body}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${size}\n0000000000 65535 f \n`;
  for (let n = 1; n < size; n++) {
    const offset = offsets[n];
    out +=
      offset === undefined
        ? "0000000000 65535 f \n"
        : `${String(offset).padStart(10, "0")} 00000 n \n`;
  }
  const encrypt = spec.encrypt ? ENCRYPT : "";
  out += `trailer\n<< /Size ${size} /Root 1 0 R /Info 4 0 R${encrypt} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, "latin1"));
}

/** A block of a laid-out page: a heading line or a paragraph of lines, at one font size. */
export interface PdfBlock {
  lines: readonly string[];
  /** @default 12 */
  size?: number;
}

/** Left margin and top of the text area, points. */
const MARGIN_LEFT = 72;
const TOP = 720;

/**
 * Lays blocks out top to bottom the way a typesetter would: lines of a block 1.2 × size
 * apart, and one extra line of space between blocks.
 *
 * @example
 * layout([{ lines: ["Title"], size: 24 }, { lines: ["First line of", "the paragraph."] }]);
 */
export function layout(blocks: readonly PdfBlock[]): PdfText[] {
  const runs: PdfText[] = [];
  let y = TOP;
  for (const block of blocks) {
    const size = block.size ?? 12;
    for (const text of block.lines) {
      runs.push({ text, x: MARGIN_LEFT, y, size });
      y -= size * 1.2;
    }
    y -= size * 1.2;
  }
  return runs;
}
