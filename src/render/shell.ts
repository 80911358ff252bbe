/**
 * `render: "auto"` decides here: render only when the static HTML gave almost no main content
 * and looks like an app shell that scripts fill in (an empty mount point, a "turn on JavaScript"
 * notice, scripts and next to no text). Anything else keeps the static result, which is faster
 * and exactly what the server sent.
 */

/** Visible characters under which static content counts as "almost none". */
const ALMOST_NONE = 300;
/** Visible characters under which scripts alone make a page a shell. */
const NEXT_TO_NOTHING = 100;
/** Bytes of the document looked at; shells are small, and the markers sit near the top. */
const HEAD_BYTES = 512 * 1024;

/** Mount points of the common frameworks: React, Next, Nuxt, Vue, Angular, Svelte, Ember, Gatsby. */
const MOUNT_POINT =
  /<(?:div|main|section)\b[^>]*\bid\s*=\s*["']?(?:root|app|__next|__nuxt|__gatsby|svelte|main-app|app-root|application)\b|<app-root\b|\bng-app\b|\bdata-reactroot\b|\bdata-server-rendered\b/i;
/** A notice that the page needs JavaScript. */
const NOSCRIPT_NOTICE = /<noscript\b[^>]*>[^<]{0,400}(?:<[^>]*>[^<]{0,400}){0,4}javascript/i;
const SCRIPT_WITH_SRC = /<script\b[^>]*\bsrc\s*=/i;
const INLINE_SCRIPT = /<script\b[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * Whether a page whose static conversion is `content` looks like a script-built app shell.
 *
 * @example
 * looksLikeAppShell(Buffer.from('<div id="root"></div><script src="/app.js"></script>'), "") // true
 */
export function looksLikeAppShell(body: Uint8Array, content: string): boolean {
  const visible = visibleLength(content, ALMOST_NONE);
  if (visible >= ALMOST_NONE) return false;
  const html = Buffer.from(
    body.buffer,
    body.byteOffset,
    Math.min(body.length, HEAD_BYTES),
  ).toString("latin1");
  if (!/<script\b/i.test(html)) return false;
  if (MOUNT_POINT.test(html) || NOSCRIPT_NOTICE.test(html)) return true;
  if (visible >= NEXT_TO_NOTHING) return false;
  if (SCRIPT_WITH_SRC.test(html)) return true;
  let inline = 0;
  for (const match of html.matchAll(INLINE_SCRIPT)) inline += match[1]?.length ?? 0;
  return inline > 2_000;
}

/** Runs of letters and digits, and link targets (which are skipped). */
const VISIBLE_RUN = /\]\([^)]*\)|[\p{L}\p{N}]+/gu;

/**
 * Letters and digits of Markdown, without its syntax or link targets, counted up to `enough`:
 * every HTML page passes here, so a long one stops being read as soon as it is long enough.
 */
function visibleLength(content: string, enough: number): number {
  let count = 0;
  for (const match of content.matchAll(VISIBLE_RUN)) {
    if (match[0].startsWith("](")) continue;
    count += match[0].length;
    if (count >= enough) break;
  }
  return count;
}
