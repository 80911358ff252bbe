/**
 * Terms for BM25: words of letters and digits, lower-cased and NFKC-folded (full-width letters
 * match their ASCII forms), English plurals folded and its most common function words dropped.
 * Chinese, Japanese and Korean have no spaces between words, so their runs become overlapping
 * character bigrams, the usual index unit for those scripts.
 */

/** Runs of letters and digits (any script). */
const WORD = /[\p{L}\p{N}]+/gu;
/** Runs written without spaces (Han, kana, Hangul; the long-vowel mark) vs everything else. */
const SCRIPT_RUN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+/gu;
const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]/u;

/** English function words: in nearly every passage, they would make every passage "match". */
const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be but by can do does for from has have how i if in into is it its " +
    "me my no not of on or our so than that the their them then there these they this to " +
    "was we were what when where which who why will with you your"
  ).split(" "),
);

/** The terms of `text`, in order, repeats kept (BM25 counts them). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const [word] of text.normalize("NFKC").toLowerCase().matchAll(WORD)) {
    for (const [run] of word.matchAll(SCRIPT_RUN)) {
      if (CJK.test(run)) pushBigrams(run, out);
      else if (!STOPWORDS.has(run)) out.push(stem(run));
    }
  }
  return out;
}

function pushBigrams(run: string, out: string[]): void {
  const chars = [...run];
  if (chars.length === 1) {
    out.push(run);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
}

/** Plural to singular, the one inflection that splits most queries from their pages. */
function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ss|us|is)$/.test(word)) return word;
  if (/(?:ches|shes|xes|sses)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}
