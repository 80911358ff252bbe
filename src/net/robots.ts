/**
 * robots.txt rules as RFC 9309 defines them, parsed and matched without any I/O (the fetcher
 * gets the file through the address guard and decides what a 4xx or 5xx means). Matching is
 * linear-time segment search, not regular expressions, so a hostile file cannot make it slow.
 */

/** One `allow` or `disallow` line. */
export interface RobotsRule {
  allow: boolean;
  /** The path pattern as written in the file. */
  pattern: string;
  /** Length in octets of the normalized pattern: the longest match wins. */
  length: number;
  /** The normalized pattern split at `*`. */
  segments: readonly string[];
  /** The pattern ends with `$`: it must match up to the end of the path. */
  anchored: boolean;
}

/** A group: the product tokens of its `user-agent` lines and its rules. */
export interface RobotsGroup {
  /** Lowercased product tokens; "*" for the catch-all group. */
  agents: string[];
  rules: RobotsRule[];
  /** `crawl-delay` in seconds, when the group has one (not part of RFC 9309). */
  crawlDelay?: number;
}

/** A parsed robots.txt. */
export interface RobotsRules {
  groups: RobotsGroup[];
  /** `sitemap` URLs, as written. */
  sitemaps: string[];
}

/** The result of a check; `rule` is the Disallow pattern that matched, when disallowed. */
export interface RobotsVerdict {
  allowed: boolean;
  rule?: string;
}

/** RFC 9309 §2.5: crawlers must parse at least 500 KiB; the rest is ignored. */
const MAX_ROBOTS_CHARS = 500 * 1024;

/**
 * Longer lines are ignored: no URL we fetch is over 2,048 characters, so such a pattern is noise
 * (Google's parser caps lines similarly).
 */
const MAX_LINE_CHARS = 16 * 1024;

/** Directive names, with the misspellings that major crawlers accept. */
const DIRECTIVES: ReadonlyMap<
  string,
  "user-agent" | "allow" | "disallow" | "crawl-delay" | "sitemap"
> = new Map([
  ["user-agent", "user-agent"],
  ["useragent", "user-agent"],
  ["user agent", "user-agent"],
  ["allow", "allow"],
  ["disallow", "disallow"],
  ["dissallow", "disallow"],
  ["dissalow", "disallow"],
  ["disalow", "disallow"],
  ["diasllow", "disallow"],
  ["disallaw", "disallow"],
  ["crawl-delay", "crawl-delay"],
  ["sitemap", "sitemap"],
  ["site-map", "sitemap"],
]);

/** `key: value`, spaces allowed around the colon. */
const KEY_VALUE_RE = /^([^:]+?)\s*:\s*(.*)$/;

/** `key value` without a colon (accepted by Google for known keys). */
const KEY_SPACE_VALUE_RE = /^([A-Za-z-]+)\s+(\S.*)$/;

/** A product token (RFC 9309 §2.2.1: letters, "_" and "-"; digits too, as in the wild). */
const PRODUCT_TOKEN_RE = /^[A-Za-z0-9_-]+/;

/** Line breaks: CR, LF or CRLF. */
const LINE_BREAK_RE = /\r\n|\r|\n/;

/** Unreserved characters (RFC 3986 §2.3): their percent-encoding is decoded when comparing. */
const UNRESERVED_RE = /[A-Za-z0-9\-._~]/;

/** Characters kept as they are: unreserved, reserved (incl. `*` and `$`) and `%`. */
const LITERAL_RE = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]/;

/** The path robots.txt itself lives at: always allowed (RFC 9309 §2.2.2). */
const ROBOTS_PATH = "/robots.txt";

/**
 * Parses a robots.txt file. Never throws; unknown lines, and rules before the first
 * `user-agent`, are ignored.
 *
 * @example
 * const rules = parseRobots("User-agent: *\nDisallow: /private\n");
 * isAllowed(rules, "/private/x", "webfetch") // → { allowed: false, rule: "/private" }
 */
export function parseRobots(text: string): RobotsRules {
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  let current: RobotsGroup | undefined;
  let inAgentLines = false;

  const lines = text
    .slice(0, MAX_ROBOTS_CHARS)
    .replace(/^\uFEFF/, "")
    .split(LINE_BREAK_RE);
  for (const rawLine of lines) {
    if (rawLine.length > MAX_LINE_CHARS) continue;
    const hash = rawLine.indexOf("#");
    const line = (hash < 0 ? rawLine : rawLine.slice(0, hash)).trim();
    if (!line) continue;
    const match = KEY_VALUE_RE.exec(line) ?? KEY_SPACE_VALUE_RE.exec(line);
    const directive = match ? DIRECTIVES.get(match[1]!.trim().toLowerCase()) : undefined;
    if (!match || !directive) continue;
    const value = match[2]!.trim();

    if (directive === "user-agent") {
      if (!current || !inAgentLines) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      inAgentLines = true;
      const token = productToken(value);
      if (token) current.agents.push(token);
    } else if (directive === "sitemap") {
      if (value) sitemaps.push(value);
    } else if (!current) {
      // RFC 9309: rules before the first user-agent line belong to no group.
    } else if (directive === "crawl-delay") {
      const delay = Number(value);
      if (value && Number.isFinite(delay) && delay >= 0) current.crawlDelay = delay;
    } else {
      inAgentLines = false;
      // An empty pattern matches nothing: "Disallow:" allows everything.
      if (value) current.rules.push(compileRule(directive === "allow", value));
    }
  }
  return { groups, sitemaps };
}

/**
 * Whether `pathWithQuery` may be fetched by the crawler named `productToken` (e.g. "webfetch";
 * a full User-Agent string also works, its leading product token is used).
 *
 * The groups naming the token (case-insensitively) are merged; if none does, the `*` groups are.
 * The longest matching pattern wins; on a tie, `allow` wins.
 *
 * @example
 * isAllowed(parseRobots("User-agent: webfetch\nDisallow: /\n"), "/a?b=1", "webfetch/1.0")
 * // → { allowed: false, rule: "/" }
 */
export function isAllowed(
  rules: RobotsRules,
  pathWithQuery: string,
  productTokenOrUserAgent: string,
): RobotsVerdict {
  const path = pathWithQuery.startsWith("/") ? pathWithQuery : `/${pathWithQuery}`;
  if (path.split("?", 1)[0] === ROBOTS_PATH) return { allowed: true };

  const applicable = groupsFor(rules, productTokenOrUserAgent);
  if (applicable.length === 0) return { allowed: true };

  const target = normalize(path);
  let best: RobotsRule | undefined;
  for (const group of applicable) {
    for (const rule of group.rules) {
      if (best && (rule.length < best.length || (rule.length === best.length && !rule.allow))) {
        continue;
      }
      if (matches(rule, target)) best = rule;
    }
  }
  return !best || best.allow ? { allowed: true } : { allowed: false, rule: best.pattern };
}

/**
 * The `crawl-delay` (seconds) that applies to a crawler, if the file sets one: the largest of its
 * groups (or of the `*` groups).
 */
export function crawlDelay(
  rules: RobotsRules,
  productTokenOrUserAgent: string,
): number | undefined {
  const delays = groupsFor(rules, productTokenOrUserAgent).flatMap((g) =>
    g.crawlDelay === undefined ? [] : [g.crawlDelay],
  );
  return delays.length > 0 ? Math.max(...delays) : undefined;
}

/** The groups for a product token, or the `*` groups when none names it. */
function groupsFor(rules: RobotsRules, productTokenOrUserAgent: string): RobotsGroup[] {
  const token = productToken(productTokenOrUserAgent);
  const named = token && token !== "*" ? rules.groups.filter((g) => g.agents.includes(token)) : [];
  return named.length > 0 ? named : rules.groups.filter((g) => g.agents.includes("*"));
}

/** The lowercased product token at the start of a user-agent value ("*" for the wildcard). */
function productToken(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed.startsWith("*")) return "*";
  return PRODUCT_TOKEN_RE.exec(trimmed)?.[0].toLowerCase();
}

/** Prepares an allow/disallow pattern for matching. */
function compileRule(allow: boolean, pattern: string): RobotsRule {
  // Patterns must start with "/" (or "*"); "Disallow: private" plainly means "/private".
  const rooted = pattern.startsWith("/") || pattern.startsWith("*") ? pattern : `/${pattern}`;
  const normalized = normalize(rooted);
  const anchored = normalized.endsWith("$");
  const body = anchored ? normalized.slice(0, -1) : normalized;
  return { allow, pattern, length: normalized.length, segments: body.split("*"), anchored };
}

/**
 * True when the rule matches the start of `path` (all of it, if anchored). Each `*` is matched
 * by a leftmost search for the next segment, which is exact for `*`-only patterns and linear.
 */
function matches(rule: RobotsRule, path: string): boolean {
  const { segments, anchored } = rule;
  const first = segments[0] ?? "";
  if (!path.startsWith(first)) return false;
  let pos = first.length;
  if (segments.length === 1) return !anchored || pos === path.length;
  for (let i = 1; i < segments.length - 1; i++) {
    const found = path.indexOf(segments[i]!, pos);
    if (found < 0) return false;
    pos = found + segments[i]!.length;
  }
  const last = segments[segments.length - 1]!;
  if (!anchored) return path.indexOf(last, pos) >= 0;
  return path.length - last.length >= pos && path.endsWith(last);
}

/**
 * One encoded form for comparing paths and patterns (RFC 9309 §2.2.2, RFC 3986 §6.2.2):
 * non-ASCII and unsafe characters percent-encoded as UTF-8, hex digits uppercased, and encoded
 * unreserved characters decoded (`%7E` → `~`). `*` and `$` are reserved, so they survive.
 */
function normalize(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "%") {
      const hex = text.slice(i + 1, i + 3);
      if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
        const decoded = String.fromCharCode(Number.parseInt(hex, 16));
        out += UNRESERVED_RE.test(decoded) ? decoded : `%${hex.toUpperCase()}`;
        i += 2;
      } else {
        out += "%25";
      }
    } else if (LITERAL_RE.test(c)) {
      out += c;
    } else {
      const code = text.codePointAt(i)!;
      const char = String.fromCodePoint(code);
      // Lone surrogates cannot be encoded; encode U+FFFD in their place.
      out +=
        /[\ud800-\udfff]/.test(char) && char.length === 1 ? "%EF%BF%BD" : encodeURIComponent(char);
      i += char.length - 1;
    }
  }
  return out;
}
