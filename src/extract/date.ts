/**
 * Publication dates come in every format (ISO 8601, "2024/01/02", RFC 2822, "January 2, 2024",
 * "2024年1月2日"). This turns the ones we can read into one ISO 8601 form, the same on every
 * machine: a date without a zone is taken as UTC, never as the server's local time.
 */

/** ISO 8601 date or date-time, also with `/` or `.` separators and a space before the time. */
const ISO_LIKE =
  /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?)?$/i;
/** Compact ISO 8601 (`20240102`, `20240102T100000Z`), common in citation and DC metadata. */
const ISO_COMPACT = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?()(Z)?)?$/i;
/** Year or year-month only: already ISO 8601, kept at that precision. */
const REDUCED_PRECISION = /^(\d{4})(?:[-/](\d{1,2}))?$/;
/** Japanese and Chinese dates: 2024年1月2日. */
const CJK_DATE = /^(\d{4})年(\d{1,2})月(\d{1,2})日/;
/** Free-form dates must name a month and a four-digit year ("January 2, 2024", RFC 2822). */
const MONTH_NAME = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?=[\s,.\d]|$)/i;
const FOUR_DIGIT_YEAR = /\b\d{4}\b/;
/** A zone written in the string, which `Date.parse` then honours. */
const HAS_ZONE = /(?:\b(?:Z|UTC|GMT|[ECMP][SD]T)\b|[+-]\d{2}:?\d{2}\s*$)/;
/** Years outside this range are parse accidents, not publication dates. */
const MIN_YEAR = 1000;
const MAX_YEAR = 9999;

/**
 * Normalizes a date string to ISO 8601 in UTC (`2024-01-02T10:00:00Z`, milliseconds only when
 * present). Year-only and year-month values stay at their precision (`2024`, `2024-03`).
 * Returns `undefined` when the string is not a date we can read.
 *
 * @example
 * normalizeDate("2024-01-02T19:00:00+09:00"); // "2024-01-02T10:00:00Z"
 * normalizeDate("January 2, 2024"); // "2024-01-02T00:00:00Z"
 */
export function normalizeDate(value: string): string | undefined {
  const text = value.trim();
  if (text === "" || text.length > 100) return undefined;

  const reduced = REDUCED_PRECISION.exec(text);
  if (reduced) {
    const year = Number(reduced[1]);
    if (year < MIN_YEAR || year > MAX_YEAR) return undefined;
    if (reduced[2] === undefined) return reduced[1];
    const month = Number(reduced[2]);
    return month >= 1 && month <= 12 ? `${reduced[1]}-${pad(month)}` : undefined;
  }

  const iso = ISO_LIKE.exec(text) ?? ISO_COMPACT.exec(text);
  if (iso) {
    const [, y, mo, d, h = "0", mi = "0", s = "0", fraction = "", zone] = iso;
    const ms = Math.round(Number(`0.${fraction || "0"}`) * 1000);
    return fromParts(
      [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s), ms],
      zone,
    );
  }

  const cjk = CJK_DATE.exec(text);
  if (cjk)
    return fromParts([Number(cjk[1]), Number(cjk[2]), Number(cjk[3]), 0, 0, 0, 0], undefined);

  // Free-form dates ("Tue, 02 Jan 2024 10:00:00 GMT", "January 2, 2024"): let V8 read them,
  // pinned to UTC when the string names no zone. V8 guesses wildly ("not a date 12" is 2001),
  // so only strings with a month name and a year are tried.
  if (!MONTH_NAME.test(text) || !FOUR_DIGIT_YEAR.test(text)) return undefined;
  const time = Date.parse(HAS_ZONE.test(text) ? text : `${text} UTC`);
  return Number.isNaN(time) ? undefined : format(new Date(time));
}

/** Builds the UTC date from parts, applying a `+09:00`-style offset; rejects impossible dates. */
function fromParts(
  [year, month, day, hour, minute, second, ms]: readonly [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ],
  zone: string | undefined,
): string | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60) {
    return undefined;
  }
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, ms));
  date.setUTCFullYear(year); // Date.UTC maps years 0–99 to 1900–1999
  if (date.getUTCDate() !== day && hour < 24) return undefined; // 2024-02-31
  let time = date.getTime();
  if (zone && /^[+-]/.test(zone)) {
    const sign = zone.startsWith("-") ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    const offset = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || "0");
    time -= sign * offset * 60_000;
  }
  return format(new Date(time));
}

/** `2024-01-02T10:00:00Z`, with milliseconds only when they are not zero. */
function format(date: Date): string | undefined {
  const year = date.getUTCFullYear();
  if (Number.isNaN(year) || year < MIN_YEAR || year > MAX_YEAR) return undefined;
  return date.toISOString().replace(".000Z", "Z");
}

/** Two-digit month. */
function pad(n: number): string {
  return String(n).padStart(2, "0");
}
