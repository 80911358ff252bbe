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
  /** Newlines owed before the next content (0–2). */
  private owed = 0;
  /** The owed single newline is a `<br>`. */
  private hard = false;
  empty = true;
  /** Block content (a heading, a paragraph break) was added. */
  blocky = false;

  constructor(private readonly hardBreak: string) {}

  /** Appends inline content, paying owed separators first. */
  inline(text: string): void {
    if (text === "") return;
    if (this.owed > 0 && !this.empty) {
      this.text += this.owed === 1 && this.hard ? this.hardBreak : this.owed === 1 ? "\n" : "\n\n";
    }
    this.owed = 0;
    this.hard = false;
    this.text += text;
    this.empty = false;
  }

  /** Appends a block with `before`/`after` newlines around it (2 = blank line). */
  block(text: string, before = 2, after = 2): void {
    if (text === "") return;
    this.separate(before);
    this.inline(text);
    this.separate(after);
    this.blocky = true;
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
    return this.text;
  }
}
