/**
 * Heading-aware chunks of converted Markdown: the text under each ATX heading is cut into
 * passages of a few paragraphs (code fences kept whole where they fit, never read as
 * headings), and every chunk knows the path of headings above it, so a passage ranked on its
 * own still says where it came from.
 */

/** A heading of the document; `id` tells two headings with the same text apart. */
export interface Heading {
  id: number;
  level: number;
  /** The heading line as written (`## Install`). */
  line: string;
  /** Its text (`Install`). */
  text: string;
}

export interface Chunk {
  /** Position in document order, from 0. */
  index: number;
  /** The headings above the chunk, outermost first. */
  headings: Heading[];
  /** The passage, without its headings. */
  text: string;
}

/** Passages grow by whole paragraphs up to this many characters. */
const TARGET_CHARS = 1_000;
/** A paragraph longer than this is cut at lines, then at sentences or spaces. */
const MAX_CHARS = 1_500;
/** `#` to `######`, up to three spaces of indent, optional closing hashes (CommonMark). */
const ATX = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Splits Markdown (or plain text, which simply has no headings) into chunks.
 *
 * @example
 * chunkMarkdown("# Guide\n\n## Install\n\nRun npm install.")[0]?.headings.map((h) => h.text); // ["Guide", "Install"]
 */
export function chunkMarkdown(markdown: string): Chunk[] {
  const chunks: Chunk[] = [];
  let path: Heading[] = [];
  let blocks: string[] = [];
  let lines: string[] = [];
  let fence: string | undefined;
  let headingId = 0;

  const endBlock = () => {
    const block = lines.join("\n").trim();
    if (block) blocks.push(block);
    lines = [];
  };
  const endSection = () => {
    endBlock();
    for (const text of packBlocks(blocks))
      chunks.push({ index: chunks.length, headings: path, text });
    blocks = [];
  };

  for (const line of markdown.split("\n")) {
    if (fence !== undefined) {
      lines.push(line);
      if (line.trim().startsWith(fence)) {
        fence = undefined;
        endBlock();
      }
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening) {
      endBlock();
      fence = opening[1]!;
      lines.push(line);
      continue;
    }
    const heading = ATX.exec(line);
    if (heading) {
      endSection();
      const level = heading[1]!.length;
      path = [
        ...path.filter((h) => h.level < level),
        { id: headingId++, level, line: line.trim(), text: heading[2]!.trim() },
      ];
      continue;
    }
    if (line.trim() === "") endBlock();
    else lines.push(line);
  }
  endSection();
  return chunks;
}

/** Paragraphs merged into passages of about TARGET_CHARS; long ones cut to MAX_CHARS. */
function packBlocks(blocks: readonly string[]): string[] {
  const out: string[] = [];
  let current = "";
  for (const block of blocks.flatMap(splitLong)) {
    if (current && current.length + 2 + block.length > TARGET_CHARS) {
      out.push(current);
      current = "";
    }
    current = current ? `${current}\n\n${block}` : block;
  }
  if (current) out.push(current);
  return out;
}

/** A block cut into pieces of at most MAX_CHARS: at newlines, else sentence ends, else spaces. */
function splitLong(block: string): string[] {
  if (block.length <= MAX_CHARS) return [block];
  const pieces: string[] = [];
  let rest = block;
  while (rest.length > MAX_CHARS) {
    const window = rest.slice(0, MAX_CHARS);
    let cut = -1;
    for (const boundary of ["\n", ". ", "。", " "]) {
      const at = window.lastIndexOf(boundary);
      if (at > MAX_CHARS / 2) {
        cut = at + boundary.length;
        break;
      }
    }
    if (cut < 0) cut = safeCut(rest, MAX_CHARS);
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut);
  }
  if (rest.trim()) pieces.push(rest.trim());
  return pieces.filter(Boolean);
}

/** `at`, moved back one if it would split a surrogate pair. */
function safeCut(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

/** The text BM25 reads for a chunk: its heading path, then the passage. */
export function chunkSearchText(chunk: Chunk): string {
  return [...chunk.headings.map((h) => h.text), chunk.text].join("\n");
}

/**
 * Chunks printed in document order under their headings: each heading once, where the chunks
 * below it start, as a reader of the full page would meet it.
 */
export function renderChunks(chunks: readonly Chunk[]): string {
  const parts: string[] = [];
  let printed: Heading[] = [];
  for (const chunk of [...chunks].sort((a, b) => a.index - b.index)) {
    let shared = 0;
    while (
      shared < printed.length &&
      shared < chunk.headings.length &&
      printed[shared]!.id === chunk.headings[shared]!.id
    ) {
      shared++;
    }
    for (const heading of chunk.headings.slice(shared)) parts.push(heading.line);
    parts.push(chunk.text);
    printed = chunk.headings;
  }
  return parts.join("\n\n");
}

/** The most characters a chunk can add to `renderChunks` output: all its headings, separators. */
export function chunkCost(chunk: Chunk): number {
  return chunk.headings.reduce((n, h) => n + h.line.length + 2, chunk.text.length + 2);
}
