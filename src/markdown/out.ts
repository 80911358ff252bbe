/**
 * The output buffer of one render frame. Separators between blocks are owed rather than
 * written, so output never starts or ends with blank lines and never has two in a row.
 */

/**
 * Output of one frame: inline text, blocks, and the newlines owed between them.
 *
 * @example
 * const out = new Out("  \n");
 * out.block("# Title"); out.inline("text"); out.toString(); // "# Title\n\ntext"
 */
export class Out {
  /**
   * The text so far, joined as it comes: V8 joins two strings by reference and copies them
   * once, when the whole is first read, where a list of parts joined at the end costs a list per
   * frame and a copy of each frame's text at every level it is nested in.
   */
  private text = "";
  /**
   * The output before `text`, once it outgrew FLAT_PIECE characters, when this is the output of
   * the whole render (undefined otherwise): flattened pieces. The parts of a long output joined
   * by reference (millions of small strings and the joins between them) all lived until the end
   * and were copied by every young-generation collection on the way; flattened a piece at a
   * time, they die young. A nested frame's output is passed up by reference instead: flattened
   * at every level, a list nested 16 deep was copied 16 times.
   */
  private readonly pieces: string[] | undefined;
  /** Newlines owed before the next content (0–2). */
  private owed = 0;
  /** The owed single newline is a `<br>`. */
  private hard = false;
  empty = true;
  /** Nothing but whitespace was added. */
  blank = true;
  /** Block content (a heading, a paragraph break) was added. */
  blocky = false;

  /**
   * @param indent What every line after the first starts with, blank lines aside: the
   *   indentation of the list items and the markers of the quotes this output is in. Lines are
   *   indented as they are written, once, not again by each enclosing item or quote (which would
   *   copy a deep list's or quote's text once per level).
   * @param blankIndent What a blank line after the first starts with: empty, or inside a quote
   *   the indentation up to its marker (`>` in Markdown), so the quote goes on across the line.
   * @param flattens Whether this is the output of the whole render, flattened as it grows.
   */
  constructor(
    private readonly hardBreak: string,
    public indent = "",
    public blankIndent = "",
    flattens = false,
  ) {
    this.pieces = flattens ? [] : undefined;
  }

  /** Empties a nested frame's output for reuse, as `new Out(hardBreak, indent, blankIndent)`. */
  reset(indent: string, blankIndent: string): void {
    this.indent = indent;
    this.blankIndent = blankIndent;
    this.text = "";
    this.owed = 0;
    this.hard = false;
    this.empty = true;
    this.blank = true;
    this.blocky = false;
  }

  /** Appends inline content, paying owed separators first and indenting its lines. */
  inline(text: string): void {
    if (text !== "") this.append(this.indentLines(text), this.blank && !NOT_SPACE.test(text));
  }

  /** Appends inline content that holds no line break, so has no line to indent. */
  inlineLine(text: string): void {
    if (text !== "") this.append(text, this.blank && !NOT_SPACE.test(text));
  }

  /**
   * Appends the output of a nested list, item or definition, whose lines are indented already
   * (its `indent` starts with this one's), and which is `blank` when it is only whitespace.
   */
  indented(text: string, blank: boolean): void {
    if (text !== "") this.append(text, this.blank && blank);
  }

  /** Appends a block with `before`/`after` newlines around it (2 = blank line). */
  block(text: string, before = 2, after = 2): void {
    this.indentedBlock(this.indentLines(text), !NOT_SPACE.test(text), before, after);
  }

  /** Appends an already indented block (see `indented`) with newlines around it. */
  indentedBlock(text: string, blank: boolean, before = 2, after = 2): void {
    if (text === "") return;
    this.separate(before);
    this.indented(text, blank);
    this.separate(after);
    this.blocky = true;
  }

  /** `text` with its lines after the first indented: by `indent`, or blank ones by `blankIndent`. */
  private indentLines(text: string): string {
    if (this.indent === "" || !text.includes("\n")) return text;
    const indented = text.replace(TEXT_LINE_START, `\n${this.indent}`);
    return this.blankIndent === ""
      ? indented
      : indented.replace(BLANK_LINE_START, `\n${this.blankIndent}`);
  }

  private append(text: string, blank: boolean): void {
    if (this.owed > 0 && !this.empty) {
      this.text += this.separator();
      // A blank line stays empty, or holds only a quote's marker: only a line with text is
      // indented.
      this.text += startsWithNewline(text) ? this.blankIndent : this.indent;
    }
    this.owed = 0;
    this.hard = false;
    this.text += text;
    if (this.pieces !== undefined && this.text.length > FLAT_PIECE) this.flattenText();
    this.empty = false;
    this.blank = blank;
  }

  /** The owed newlines: a line break, or a blank line between two. */
  private separator(): string {
    if (this.owed === 1) return this.hard ? this.hardBreak : "\n";
    return this.blankIndent === "" ? "\n\n" : `\n${this.blankIndent}\n`;
  }

  /** Asks for at least `newlines` before the next content. */
  separate(newlines: number): void {
    if (newlines > this.owed) {
      this.owed = newlines;
      this.hard = false;
    }
    if (newlines >= 2) this.blocky = true;
  }

  /** A `<br>`: a line break, or a paragraph break after another `<br>`. */
  lineBreak(): void {
    if (this.owed === 0) {
      this.owed = 1;
      this.hard = true;
    } else if (this.owed === 1 && this.hard) {
      this.owed = 2;
      this.hard = false;
    }
  }

  /** True when the next content starts a line. */
  atLineStart(): boolean {
    return this.empty || this.owed > 0;
  }

  /** True when a `<br>` is owed (to be carried to the enclosing frame). */
  owesLineBreak(): boolean {
    return this.owed === 1 && this.hard;
  }

  toString(): string {
    if (this.pieces === undefined || this.pieces.length === 0) return this.text;
    // One join of every piece: joining the last one on after would copy the whole output again.
    return [...this.pieces, this.text].join("");
  }

  /** Moves `text`, flattened, to `pieces`. */
  private flattenText(): void {
    // Reading a character of a string joined by reference makes V8 copy it into one.
    this.text.charCodeAt(0);
    this.pieces!.push(this.text);
    this.text = "";
  }
}

/** Characters of output joined by reference before they are flattened into one string. */
const FLAT_PIECE = 64 * 1024;

/** A line break that starts a line with text: every line after the first but the blank ones. */
const TEXT_LINE_START = /\n(?=[^\n])/g;
/** A line break that starts a blank line (or ends the text). */
const BLANK_LINE_START = /\n(?=\n|$)/g;
/** Any character but whitespace (what `trim` keeps). */
const NOT_SPACE = /\S/;

/**
 * Whether `text` starts with a newline. A text joined by reference (a nested frame's output) is
 * read without being copied: charCodeAt or startsWith would flatten it first, once per level of
 * nesting, where a comparison walks to its first character only.
 */
export function startsWithNewline(text: string): boolean {
  return text >= "\n" && text < "\u000b";
}
