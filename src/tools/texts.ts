/**
 * Every text a tool shows a model, in English and Japanese (`locale`). Some Japanese texts are
 * fixed word for word because Japanese agents already show and expect them: web_fetch's messages
 * for a bad URL, a timeout and an HTTP error, and the headings and lines of the search, extract
 * and context results. Nothing else in the tool layer holds prose.
 */
import type { ErrorCode } from "../errors.js";
import type { Locale } from "../values.js";

/** Codes of tool errors: webfetch's, and one for a bug that reached the tool boundary. */
export type ToolErrorCode = ErrorCode | "INTERNAL_ERROR";

/** What an error text is made from. */
export interface ErrorInfo {
  code: ToolErrorCode;
  message: string;
  location?: string;
  /** The provider that failed (AUTH_ERROR, RATE_LIMITED, PROVIDER_ERROR), by name. */
  provider?: string;
}

/** What a continuation line needs: where to go on, and how to reach the rest by id. */
export interface Continuation {
  next: number;
  total: number;
  id: string;
  /** Current names of the read and grep tools; undefined when disabled. */
  read?: string | undefined;
  grep?: string | undefined;
}

/** Text of one tool: its title, its description for a model, and its parameters'. */
export interface ToolTexts {
  title: string;
  description: string;
}

export interface Texts {
  labels: {
    title: string;
    url: string;
    savedPath: string;
    errorType: string;
    warning: string;
    links: string;
    images: string;
  };
  continuation(c: Continuation): string;
  /** The line that says a screenshot was taken (the image travels beside the text). */
  screenshot(shot: { width: number; height: number; bytes: number }): string;
  /** A call, through an adapter, of a tool that is not registered. */
  unknownTool(name: string): string;
  /** A call whose arguments are not valid JSON. */
  badArguments(detail: string): string;
  errorMessage(error: ErrorInfo): string;
  /** The first line for a search provider's failure, naming the provider. */
  providerError(error: ErrorInfo): string;
  readNeedsRef: string;
  /** A page fetched with `query`: how many passages matched, or that none did. */
  focus: {
    summary(query: string, returned: number, total: number): string;
    none(query: string): string;
  };
  extract: {
    heading: string;
    item(url: string): string;
    failedHeading: string;
    failedItem(url: string, message: string): string;
    none: string;
  };
  search: {
    heading(query: string): string;
    result(n: number, title: string, url: string, score: number, snippet: string): string;
    none: string;
  };
  context: { heading(query: string): string };
  /** A result cut to a host's token budget, and the page resources that carry the rest. */
  budget: {
    /** The warning of a page whose content was cut to fit. */
    cut(tokens: number): string;
    /** The warning of a screenshot whose base64 left the result object (the image block keeps it). */
    screenshotData(tokens: number): string;
    /** The last line of a text that was shortened to fit. */
    textCut(tokens: number): string;
    /** A resource link's description: the rest of a page from a character on. */
    rest(url: string, start: number, total: number): string;
    /** The last line of a page resource that stops before the page ends. */
    resourceContinuation(next: number, total: number, uri: string): string;
    /** The description of the page resources. */
    resources: string;
  };
  map: {
    heading(url: string, count: number): string;
    truncated(limit: number): string;
    none: string;
  };
  crawl: {
    heading(url: string): string;
    /** A page's heading: its number in the crawl, URL and depth, and its id when it has one. */
    item(n: number, url: string, depth: number, id?: string): string;
    summaryHeading: string;
    /** The summary's counts. */
    summary(s: CrawlCounts): string;
    failedItem(url: string, message: string): string;
    /** The heading over pages left out of a result to fit a token budget, listed by id. */
    moreHeading(count: number): string;
    moreItem(url: string, id: string, title?: string): string;
    /** The crawl was stopped before it ran out of pages. */
    cancelled: string;
    none: string;
  };
  grep: {
    summary(count: number, pattern: string, totalLines: number): string;
    none(pattern: string): string;
    invalidRegex: string;
    slowRegex: string;
    shown(n: number): string;
    incomplete: string;
  };
  tools: Record<
    | "web_fetch"
    | "web_extract"
    | "web_search"
    | "web_context"
    | "web_read"
    | "web_grep"
    | "web_fetch_agent"
    | "web_fetch_structured"
    | "web_map"
    | "web_crawl",
    ToolTexts
  >;
  params: {
    url: string;
    prompt: string;
    agent_prompt: string;
    description: string;
    schema(max: number): string;
    structured_prompt: string;
    query: string;
    extract_mode: string;
    max_length(defaultLength: number): string;
    start_index: string;
    include_selectors: string;
    links: string;
    images: string;
    screenshot(width: number, height: number, maxSide: number, maxHeight: number): string;
    exclude_selectors: string;
    urls(max: number): string;
    id: string;
    length(defaultLength: number): string;
    pattern(max: number): string;
    context_lines(defaultLines: number, max: number): string;
    search_query(max: number): string;
    search_depth: string;
    max_results(defaultResults: number, max: number): string;
    include_domains: string;
    exclude_domains: string;
    time_range: string;
    context_query(max: number): string;
    max_tokens(defaultTokens: number): string;
    map_url: string;
    map_limit(defaultLimit: number, max: number): string;
    map_search(max: number): string;
    sitemap: string;
    include_subdomains: string;
    include_paths(max: number, maxLength: number): string;
    exclude_paths: string;
    crawl_url: string;
    crawl_limit(defaultLimit: number, max: number): string;
    max_depth(defaultDepth: number, max: number): string;
    crawl_query(max: number): string;
    allow_subdomains: string;
    allow_external: string;
  };
}

/** What a crawl's summary line counts. */
export interface CrawlCounts {
  pages: number;
  failed: number;
  robots: number;
  filtered: number;
  duplicate: number;
  limit: number;
  seconds: number;
}

/** The tools that reach the rest of a page by id, naming only those that are registered. */
function refTools(c: Continuation): string | undefined {
  const names = [c.read, c.grep].filter((name): name is string => name !== undefined);
  return names.length > 0 ? names.join(" / ") : undefined;
}

const en: Texts = {
  labels: {
    title: "Title",
    url: "URL",
    savedPath: "Saved to",
    errorType: "Error type",
    warning: "Warning",
    links: "Links",
    images: "Images",
  },
  screenshot: ({ width, height, bytes }) =>
    `Screenshot: PNG, ${width} × ${height} px, ${bytes.toLocaleString("en-US")} bytes`,
  continuation(c) {
    const tools = refTools(c);
    const byId = tools ? `, or use ${tools} with id "${c.id}"` : "";
    return `[Content truncated: showing characters up to ${c.next} of ${c.total}. To read more, call again with start_index=${c.next}${byId}.]`;
  },
  unknownTool: (name) => `No tool is named ${name}`,
  badArguments: (detail) => `The arguments are not valid JSON: ${detail}`,
  errorMessage: (error) => error.message,
  providerError: (error) => `Search provider error: ${error.message}`,
  readNeedsRef: "Give the url or the id of a page fetched earlier",
  focus: {
    summary: (query, returned, total) =>
      `Passages matching "${query}": ${returned} of ${total}, in page order`,
    none: (query) =>
      `No passage of the page matches "${query}". Try other words, or fetch without query.`,
  },
  extract: {
    heading: "## Extracted content",
    item: (url) => `### URL: ${url}`,
    failedHeading: "## Failed URLs",
    failedItem: (url, message) => `- ${url}: ${message}`,
    none: "Could not extract content from any URL.",
  },
  search: {
    heading: (query) => `## Search results: ${query}`,
    result: (n, title, url, score, snippet) =>
      `### ${n}. ${title}\nURL: ${url}\nScore: ${score.toFixed(2)}\n${snippet}`,
    none: "No search results found.",
  },
  context: { heading: (query) => `## Search context for RAG: ${query}` },
  budget: {
    cut: (tokens) =>
      `Cut to fit the client's limit of ${tokens} tokens per result; the rest is linked as a resource`,
    screenshotData: (tokens) =>
      `The screenshot's base64 is left out of the result object to fit the client's limit of ${tokens} tokens per result; the image block carries it`,
    textCut: (tokens) => `[Cut to fit the client's limit of ${tokens} tokens per result.]`,
    rest: (url, start, total) => `${url}: the page's content from character ${start} of ${total}`,
    resourceContinuation: (next, total, uri) =>
      `[Content truncated: showing characters up to ${next} of ${total}. To read more, read ${uri}.]`,
    resources:
      "Pages this server has fetched, by id; ?start=N reads from character N. Each read is cut to the result token budget.",
  },
  map: {
    heading: (url, count) => `## Site map: ${url} (${count} ${count === 1 ? "URL" : "URLs"})`,
    truncated: (limit) =>
      `[More URLs were found than the limit of ${limit}: narrow with search or include_paths, or raise limit.]`,
    none: "No URLs found on this site.",
  },
  crawl: {
    heading: (url) => `## Crawl: ${url}`,
    item: (n, url, depth, id) => `### ${n}. ${url} (depth ${depth}${id ? `, id ${id}` : ""})`,
    summaryHeading: "## Crawl summary",
    summary: (c) =>
      `${c.pages} ${c.pages === 1 ? "page" : "pages"}, ${c.failed} failed, in ${c.seconds.toFixed(1)} s. ` +
      `Skipped: ${c.robots} by robots.txt, ${c.filtered} filtered (off site, paths, traps), ` +
      `${c.duplicate} duplicates, ${c.limit} past the limits.`,
    failedItem: (url, message) => `- failed: ${url}: ${message}`,
    moreHeading: (count) =>
      `## ${count} more ${count === 1 ? "page" : "pages"}, left out to fit the result's size (read each by its id)`,
    moreItem: (url, id, title) => `- ${url}${title ? ` — ${title}` : ""} (id ${id})`,
    cancelled: "The crawl was stopped before it finished.",
    none: "No pages were crawled.",
  },
  grep: {
    summary: (count, pattern, totalLines) =>
      `${count} matching ${count === 1 ? "line" : "lines"} for "${pattern}" (the page has ${totalLines} lines)`,
    none: (pattern) => `No lines match "${pattern}".`,
    invalidRegex: "The pattern is not a valid regular expression: searched as literal text.",
    slowRegex: "The regular expression took too long: searched as literal text.",
    shown: (n) => `Showing the first ${n}.`,
    incomplete: "The search stopped at its time limit: there may be more matches.",
  },
  tools: {
    web_fetch: {
      title: "Fetch web page",
      description:
        "Fetch a web page and return its main content as Markdown (or plain text), with its title and final URL. " +
        "Use it to read a page whose URL you know. A long page is cut at max_length characters; the cut result " +
        "ends with a line giving the start_index to continue from and an id to read or search the rest. " +
        "With prompt, a small model answers it from the page and only the answer is returned. " +
        "Only public http(s) URLs: private and local addresses are refused.",
    },
    web_extract: {
      title: "Extract content from URLs",
      description:
        "Fetch up to 20 URLs at once and return the main content of each under a heading with its URL, " +
        "followed by the URLs that failed and why. Duplicate URLs are merged; an invalid or failing URL is " +
        "reported without stopping the others.",
    },
    web_search: {
      title: "Search the web",
      description:
        "Search the web and return numbered results, each with its title, URL, relevance score and a snippet. " +
        "Use it to find pages when you do not know the URL; then read the best ones with web_fetch. " +
        "search_depth advanced looks harder (with providers that support it); include_domains / exclude_domains " +
        "and time_range narrow the results.",
    },
    web_context: {
      title: "Search context for RAG",
      description:
        "Search the web, read the top results and return the passages most relevant to the query as one context " +
        "within max_tokens, each passage cited [n] with a source list at the end. Use it to ground an answer in " +
        "current web sources in a single call.",
    },
    web_read: {
      title: "Read a fetched page",
      description:
        "Read part of a page fetched earlier, by the id that a cut result gave or by its URL: start_index " +
        "and length choose the characters. Use it to go on reading a long page without fetching it again.",
    },
    web_grep: {
      title: "Search a fetched page",
      description:
        "Search the full content of a page fetched earlier (by id or URL) for a pattern: a regular expression, " +
        "or literal text when it is not a valid one; case-insensitive unless the pattern has capitals. " +
        "Returns the matching lines with their line numbers and context. Use it to find the part of a long " +
        "page you need.",
    },
    web_fetch_agent: {
      title: "Web page sub-agent",
      description:
        "Give a URL and a task; a sub-agent fetches the page, reads and searches it as needed (long pages " +
        "included) and returns only its answer, with quotes from the page and the source URL. Use it to get " +
        "specific information from a page without reading the whole page yourself.",
    },
    web_fetch_structured: {
      title: "Extract structured data from a web page",
      description:
        "Give a URL and a JSON Schema (as JSON text); a small model fills the schema from the page and the " +
        "data is returned as JSON, checked against the schema, with the page's title and URL. Use it to get " +
        "fields (prices, names, dates, lists) from a page in a fixed shape. A reply that still does not match " +
        "the schema after one correction is MODEL_OUTPUT_INVALID.",
    },
    web_map: {
      title: "Map a site's URLs",
      description:
        "List the URLs of a website without reading its pages: from its sitemaps (found through robots.txt " +
        "and the usual paths) and the links of the start page, one per line with its title when known. " +
        "Use it to find the right page of a site before fetching it; search ranks the URLs by a query " +
        "(words of the URL and title), include_paths / exclude_paths filter them by path. Only the start " +
        "URL's host (include_subdomains: the whole domain); URLs robots.txt refuses are left out.",
    },
    web_crawl: {
      title: "Crawl a site",
      description:
        "Fetch a website's pages by following its links from a start URL, breadth-first (or the pages most " +
        "relevant to query first), and return each page's content under a heading with its URL, depth and id, " +
        "then a summary of what failed and what was skipped. Few pages by default (limit); each page's full " +
        "text stays reachable by its id through web_read / web_grep. Only the start URL's host unless told " +
        "otherwise; robots.txt is obeyed. Use web_map first to see a site's URLs without reading them.",
    },
  },
  params: {
    url: "The http or https URL of the page",
    prompt:
      "A question or instruction answered from the page by a small model (without a model configured, the most relevant passages are returned)",
    agent_prompt: "What to find out or extract from the page",
    description: "A short description of the task, 3 to 5 words",
    schema: (max) =>
      `A JSON Schema of the data to extract, written as JSON text (at most ${max} characters), e.g. {"type":"object","properties":{"price":{"type":"number"}},"required":["price"]}`,
    structured_prompt: "An instruction on what to extract, besides the schema (optional)",
    query: "Keep only the passages of the page relevant to this query",
    extract_mode:
      'Output format: "markdown" (default), "text", "html" (the same main content as clean HTML: no scripts, styles or event handlers, absolute URLs) or "raw" (the document as served, not extracted; a PDF gives its text). query and prompt read Markdown or text only',
    max_length: (n) => `Characters of content to return (default ${n})`,
    start_index: "Character offset to start from, to continue a cut page (default 0)",
    include_selectors:
      'CSS selectors: keep only what they match, e.g. ["article", "#comments"]; one that matches nothing is SELECTOR_NOT_FOUND',
    exclude_selectors: 'CSS selectors: remove what they match before extracting, e.g. [".ads"]',
    links:
      "List the page's links after the content (URL, text, whether internal and in the main content)",
    images: "List the page's images after the content (URL and alt text)",
    screenshot: (width, height, maxSide, maxHeight) =>
      `Also return a PNG screenshot of the page rendered in a browser: true for a ${width}×${height} viewport, or {full_page, width, height} (viewport ${maxSide} px at most; a full page is cut at ${maxHeight} px). The content then comes from the rendered page. HTML pages only`,
    urls: (max) => `The http or https URLs to fetch, 1 to ${max}`,
    id: "The id of a page fetched earlier (given by a cut result)",
    length: (n) => `Characters to return (default ${n})`,
    pattern: (max) =>
      `A regular expression or literal text to search for (at most ${max} characters)`,
    context_lines: (n, max) =>
      `Lines of context before and after each match, 0 to ${max} (default ${n})`,
    search_query: (max) => `The search query (1 to ${max} characters)`,
    search_depth: 'Search depth: "basic" (default) or "advanced"',
    max_results: (n, max) => `Number of results, 1 to ${max} (default ${n})`,
    include_domains: "Only return results from these domains (subdomains included)",
    exclude_domains: "Never return results from these domains (subdomains included)",
    time_range: 'Only pages from the past "day", "week", "month" or "year"',
    context_query: (max) => `What the context should answer (1 to ${max} characters)`,
    max_tokens: (n) => `Token budget of the whole context, source list included (default ${n})`,
    map_url: "The http or https URL of the site (its home page or a section)",
    map_limit: (n, max) => `URLs to return, 1 to ${max} (default ${n})`,
    map_search: (max) =>
      `Rank the URLs by this query, best first, leaving out those that do not match (at most ${max} characters)`,
    sitemap:
      'Where URLs come from: "include" (default: sitemaps and the start page\'s links), "only" (sitemaps only) or "skip" (the start page only)',
    include_subdomains: "Also list URLs on subdomains of the site's domain (default false)",
    include_paths: (max, maxLength) =>
      `Regular expressions on the URL path: keep only URLs whose path matches one, e.g. ["^/docs/"] (at most ${max}, each at most ${maxLength} characters)`,
    exclude_paths:
      'Regular expressions on the URL path: leave out URLs whose path matches one, e.g. ["^/tag/"]',
    crawl_url: "The http or https URL to start crawling from (a site's home page or a section)",
    crawl_limit: (n, max) =>
      `Pages to fetch at most, 1 to ${max} (default ${n}); failed and duplicate pages count`,
    max_depth: (n, max) =>
      `Links to follow from the start page at most, 0 to ${max} (default ${n}; 0: the start page alone)`,
    crawl_query: (max) =>
      `Fetch the pages most relevant to this query first, so a small limit finds them (at most ${max} characters)`,
    allow_subdomains: "Also follow links to subdomains of the site's domain (default false)",
    allow_external: "Also follow links to other sites (default false)",
  },
};

/** Japanese messages by code; INVALID_URL's, TIMEOUT's and HTTP_ERROR's are the fixed texts. */
const JA_ERRORS: Record<ToolErrorCode, (error: ErrorInfo) => string> = {
  INVALID_URL: () => "無効なURLです。http:// または https:// で始まるURLを指定してください",
  TIMEOUT: () => "ページの取得がタイムアウトしました",
  HTTP_ERROR: () => "ページを取得できませんでした",
  BLOCKED_ADDRESS: () =>
    "ブロックされました: プライベートまたはローカルのアドレスにはアクセスできません",
  BLOCKED_DOMAIN: () => "ブロックされました: このドメインへのアクセスは許可されていません",
  ROBOTS_DISALLOWED: () => "robots.txt によりこのページの取得は禁止されています",
  NETWORK_DISABLED: () =>
    "Webページの取得にはネットワークアクセスが必要です（network が none です）",
  CROSS_HOST_REDIRECT: (e) =>
    `別のホストへリダイレクトされました${e.location ? `: ${e.location}` : ""}（追跡していません）`,
  TOO_MANY_REDIRECTS: () => "リダイレクトが多すぎます",
  CONNECT_FAILED: () => "ページに接続できませんでした",
  PROTOCOL_ERROR: () => "サーバーの応答が HTTP の規約に従っていません",
  TOO_LARGE: () => "ページが大きすぎます",
  UNSUPPORTED_CONTENT_TYPE: () => "対応していないコンテンツの種類です",
  PARSE_ERROR: () => "ページの内容を読み取れませんでした",
  RENDER_FAILED: (e) => `ページをブラウザで表示できませんでした: ${e.message}`,
  INVALID_INPUT: (e) => `入力が正しくありません: ${e.message}`,
  SELECTOR_NOT_FOUND: (e) => `セレクタに一致する要素がページにありません: ${e.message}`,
  AUTH_ERROR: () => "認証に失敗しました",
  RATE_LIMITED: () => "リクエストが多すぎます。しばらくしてから再度お試しください",
  PROVIDER_ERROR: (e) => `プロバイダーでエラーが発生しました: ${e.message}`,
  MODEL_OUTPUT_INVALID: (e) =>
    `モデルの出力がスキーマに合いませんでした（修正を1回依頼した後も）: ${e.message}`,
  INTERNAL_ERROR: (e) => `内部エラーが発生しました: ${e.message}`,
};

const ja: Texts = {
  labels: {
    title: "タイトル",
    url: "URL",
    savedPath: "保存先",
    errorType: "エラータイプ",
    warning: "警告",
    links: "リンク",
    images: "画像",
  },
  screenshot: ({ width, height, bytes }) =>
    `スクリーンショット: PNG、${width} × ${height} px、${bytes.toLocaleString("ja-JP")} バイト`,
  continuation(c) {
    const tools = refTools(c);
    const byId = tools
      ? `${tools} に id "${c.id}" を指定して全文を読む・検索することもできます。`
      : "";
    return `[コンテンツは途中までです: 全${c.total}文字のうち${c.next}文字目まで表示しています。続きを読むには start_index=${c.next} を指定して再度呼び出してください。${byId}]`;
  },
  unknownTool: (name) => `${name} という名前のツールはありません`,
  badArguments: (detail) => `引数が正しい JSON ではありません: ${detail}`,
  errorMessage: (error) => JA_ERRORS[error.code](error),
  // The fixed text names one provider ("Tavily API エラー"); here, the one that failed.
  providerError: (error) =>
    `${error.provider ?? "検索"} API エラー: ${JA_ERRORS[error.code](error)}`,
  readNeedsRef: "取得済みページの url または id を指定してください",
  focus: {
    summary: (query, returned, total) =>
      `「${query}」に関係する部分: 全${total}件のうち${returned}件（ページ内の順）`,
    none: (query) =>
      `「${query}」に関係する部分はページにありません。別の語で試すか、query なしで取得してください。`,
  },
  extract: {
    heading: "## コンテンツ抽出結果",
    item: (url) => `### URL: ${url}`,
    failedHeading: "## 失敗したURL",
    failedItem: (url, message) => `- ${url}: ${message}`,
    none: "すべてのURLからコンテンツを抽出できませんでした。",
  },
  search: {
    heading: (query) => `## 検索結果: ${query}`,
    result: (n, title, url, score, snippet) =>
      `### ${n}. ${title}\nURL: ${url}\nスコア: ${score.toFixed(2)}\n${snippet}`,
    none: "検索結果が見つかりませんでした。",
  },
  context: { heading: (query) => `## RAG用検索コンテキスト: ${query}` },
  budget: {
    cut: (tokens) =>
      `クライアントの上限（1結果あたり${tokens}トークン）に収めるため途中までにしました。続きはリソースのリンクから読めます`,
    screenshotData: (tokens) =>
      `クライアントの上限（1結果あたり${tokens}トークン）に収めるため、スクリーンショットの base64 は結果オブジェクトから外しました。画像ブロックにあります`,
    textCut: (tokens) =>
      `[クライアントの上限（1結果あたり${tokens}トークン）に収めるため途中までにしました。]`,
    rest: (url, start, total) => `${url}: 全${total}文字のうち${start}文字目からの内容`,
    resourceContinuation: (next, total, uri) =>
      `[コンテンツは途中までです: 全${total}文字のうち${next}文字目まで表示しています。続きは ${uri} を読んでください。]`,
    resources:
      "このサーバーが取得したページ（id 別）。?start=N で N 文字目から読めます。1回の読み取りは結果のトークン上限に収まります。",
  },
  map: {
    heading: (url, count) => `## サイトマップ: ${url}（${count}件のURL）`,
    truncated: (limit) =>
      `[上限の${limit}件より多くの URL が見つかりました。search や include_paths で絞り込むか、limit を大きくしてください。]`,
    none: "このサイトの URL は見つかりませんでした。",
  },
  crawl: {
    heading: (url) => `## クロール: ${url}`,
    item: (n, url, depth, id) => `### ${n}. ${url}（深さ ${depth}${id ? `、id ${id}` : ""}）`,
    summaryHeading: "## クロールの概要",
    summary: (c) =>
      `${c.pages}ページ、失敗 ${c.failed}件、${c.seconds.toFixed(1)}秒。` +
      `取得しなかった URL: robots.txt ${c.robots}件、対象外（サイト外・パス・罠）${c.filtered}件、` +
      `重複 ${c.duplicate}件、上限超過 ${c.limit}件。`,
    failedItem: (url, message) => `- 失敗: ${url}: ${message}`,
    moreHeading: (count) =>
      `## 結果の大きさに収めるため省いたページ ${count}件（それぞれ id で読めます）`,
    moreItem: (url, id, title) => `- ${url}${title ? ` — ${title}` : ""}（id ${id}）`,
    cancelled: "クロールは終わる前に止められました。",
    none: "クロールしたページはありません。",
  },
  grep: {
    summary: (count, pattern, totalLines) =>
      `"${pattern}" に一致する行: ${count}件（ページ全体で${totalLines}行）`,
    none: (pattern) => `"${pattern}" に一致する行はありません。`,
    invalidRegex: "パターンが正規表現として正しくないため、文字列として検索しました。",
    slowRegex: "正規表現の実行に時間がかかりすぎたため、文字列として検索しました。",
    shown: (n) => `最初の${n}件を表示しています。`,
    incomplete: "時間制限のため検索を途中で終了しました。ほかにも一致する行があるかもしれません。",
  },
  tools: {
    web_fetch: {
      title: "Webページの取得",
      description:
        "Webページの内容を取得し、本文を Markdown（またはプレーンテキスト）で、タイトルと最終URLとともに返す。" +
        "URL が分かっているページを読むときに使う。長いページは max_length 文字で切られ、" +
        "その結果の最後の行に続きを読むための start_index と、残りを読む・検索するための id が示される。" +
        "prompt を指定すると、小さなモデルがページからそれに答え、回答だけを返す。" +
        "公開されている http(s) の URL のみ取得でき、プライベートやローカルのアドレスは拒否される。",
    },
    web_extract: {
      title: "URL群からコンテンツを抽出",
      description:
        "最大20個の URL をまとめて取得し、URL ごとの見出しの下にそれぞれの本文を返し、最後に失敗した URL とその理由を示す。" +
        "重複した URL は1つにまとめられ、無効な URL や失敗した URL があってもほかの URL の処理は続く。",
    },
    web_search: {
      title: "Web検索",
      description:
        "Web検索を実行し、検索結果（タイトル、URL、スコア、コンテンツ概要）を番号付きで返す。" +
        "URL が分からないページを探すときに使い、よい結果は web_fetch で読む。" +
        "search_depth を advanced にすると詳しく検索する（対応するプロバイダーのみ）。include_domains / exclude_domains と time_range で結果を絞り込める。",
    },
    web_context: {
      title: "RAG用検索コンテキストの取得",
      description:
        "Web検索を実行して上位の結果を読み、クエリに最も関係する部分を max_tokens 以内の1つのコンテキストにまとめて返す。" +
        "各部分には出典番号 [n] が付き、最後に出典の一覧がある。最新のWeb情報に基づいて答えるときに1回の呼び出しで使う。",
    },
    web_read: {
      title: "取得済みページを読む",
      description:
        "以前に取得したページの一部を、途中で切られた結果の id または URL で指定して読む。" +
        "start_index と length で読む範囲（文字）を選ぶ。長いページを再取得せずに読み進めるときに使う。",
    },
    web_grep: {
      title: "取得済みページを検索",
      description:
        "以前に取得したページ（id または URL で指定）の全文をパターンで検索する。" +
        "パターンは正規表現で、正規表現として正しくなければ文字列として扱う。大文字を含まなければ大文字と小文字を区別しない。" +
        "一致した行を行番号と前後の行とともに返す。長いページから必要な箇所を探すときに使う。",
    },
    web_fetch_agent: {
      title: "Webページのサブエージェント",
      description:
        "URL とタスクを渡すと、サブエージェントがページを取得し、必要に応じて読み・検索して（長いページも）、" +
        "ページからの引用と出典 URL を添えた回答だけを返す。ページ全体を自分で読まずに特定の情報を得たいときに使う。",
    },
    web_fetch_structured: {
      title: "Webページから構造化データを抽出",
      description:
        "URL と JSON Schema（JSON テキスト）を渡すと、小さなモデルがページの内容からスキーマを埋め、" +
        "スキーマで検証したデータを JSON で、ページのタイトルと URL とともに返す。" +
        "価格・名前・日付・一覧などの項目を決まった形で取り出したいときに使う。" +
        "1回の修正後もスキーマに合わない出力は MODEL_OUTPUT_INVALID になる。",
    },
    web_map: {
      title: "サイトの URL 一覧",
      description:
        "Webサイトのページを読まずに、その URL を一覧にする。サイトマップ（robots.txt と標準の場所から探す）と開始ページのリンクから集め、" +
        "1行に1つ、分かればタイトルとともに返す。サイトのどのページを取得するか探すときに使う。" +
        "search を指定するとクエリ（URL とタイトルの語）で順位付けし、include_paths / exclude_paths でパスを絞り込める。" +
        "開始 URL のホストだけを対象とし（include_subdomains でドメイン全体）、robots.txt が禁止する URL は除く。",
    },
    web_crawl: {
      title: "サイトをクロール",
      description:
        "開始 URL からリンクをたどって Webサイトのページを取得する。幅優先で（query を指定すると関係の深いページから）、" +
        "各ページの内容を URL・深さ・id 付きの見出しの下に返し、最後に失敗したページと取得しなかった URL の概要を返す。" +
        "既定では少ないページ数（limit）。各ページの全文は id で web_read / web_grep から読める。" +
        "既定では開始 URL のホストだけを対象とし、robots.txt に従う。ページを読まずに URL だけ見るには web_map を使う。",
    },
  },
  params: {
    url: "取得するWebページのURL（http または https）",
    prompt:
      "ページの内容から小さなモデルが答える質問や指示（モデルが未設定なら最も関連する箇所を返します）",
    agent_prompt: "ページから調べたり抽出したりする内容",
    description: "タスクの短い説明（3〜5語）",
    schema: (max) =>
      `抽出するデータの JSON Schema を JSON テキストで（${max}文字まで）。例: {"type":"object","properties":{"price":{"type":"number"}},"required":["price"]}`,
    structured_prompt: "スキーマのほかに、何を抽出するかの指示（省略可）",
    query: "このクエリに関係する部分だけを残す",
    extract_mode:
      '出力形式: "markdown"（既定）、"text"、"html"（同じ本文をクリーンな HTML で。スクリプト・スタイル・イベントハンドラなし、URL は絶対）、"raw"（配信されたままの文書。抽出しない。PDF はテキスト）。query と prompt は markdown と text でのみ使えます',
    max_length: (n) => `返す本文の文字数（既定 ${n}）`,
    start_index: "読み始める文字位置。切られたページの続きを読むときに使う（既定 0）",
    include_selectors:
      'CSS セレクタ。一致した部分だけを残す（例: ["article", "#comments"]）。何にも一致しないセレクタは SELECTOR_NOT_FOUND',
    exclude_selectors: 'CSS セレクタ。一致した部分を抽出の前に取り除く（例: [".ads"]）',
    links: "本文の後にページのリンク一覧を付ける（URL、テキスト、内部リンクか、本文中か）",
    images: "本文の後にページの画像一覧を付ける（URL と代替テキスト）",
    screenshot: (width, height, maxSide, maxHeight) =>
      `ブラウザで表示したページの PNG スクリーンショットも返す。true で ${width}×${height} のビューポート、または {full_page, width, height}（ビューポートは最大 ${maxSide} px、ページ全体は ${maxHeight} px で切る）。本文も表示後のページから取る。HTML ページのみ`,
    urls: (max) => `取得する URL（http または https）、1〜${max}個`,
    id: "以前に取得したページの id（途中で切られた結果に示される）",
    length: (n) => `返す文字数（既定 ${n}）`,
    pattern: (max) => `検索する正規表現または文字列（${max}文字まで）`,
    context_lines: (n, max) => `一致した行の前後に示す行数、0〜${max}（既定 ${n}）`,
    search_query: (max) => `検索クエリ（1〜${max}文字）`,
    search_depth: '検索詳細度: "basic"（既定）または "advanced"',
    max_results: (n, max) => `結果数、1〜${max}（既定 ${n}）`,
    include_domains: "このドメイン（サブドメインを含む）の結果だけを返す",
    exclude_domains: "このドメイン（サブドメインを含む）の結果は返さない",
    time_range:
      '過去 "day"（1日）、"week"（1週間）、"month"（1か月）、"year"（1年）のページだけを返す',
    context_query: (max) => `コンテキストで答えたいこと（1〜${max}文字）`,
    max_tokens: (n) => `出典一覧を含むコンテキスト全体の最大トークン数（既定 ${n}）`,
    map_url: "対象サイトの URL（http または https。トップページやセクション）",
    map_limit: (n, max) => `返す URL の数、1〜${max}（既定 ${n}）`,
    map_search: (max) => `このクエリで URL を順位付けし、一致しないものは除く（${max}文字まで）`,
    sitemap:
      'URL の集め方: "include"（既定。サイトマップと開始ページのリンク）、"only"（サイトマップのみ）、"skip"（開始ページのみ）',
    include_subdomains: "サイトのドメインのサブドメインの URL も含める（既定 false）",
    include_paths: (max, maxLength) =>
      `URL のパスに対する正規表現。どれかに一致するパスの URL だけを残す（例: ["^/docs/"]、${max}個まで、各${maxLength}文字まで）`,
    exclude_paths:
      'URL のパスに対する正規表現。どれかに一致するパスの URL を除く（例: ["^/tag/"]）',
    crawl_url: "クロールを始める URL（http または https。サイトのトップページやセクション）",
    crawl_limit: (n, max) =>
      `取得するページ数の上限、1〜${max}（既定 ${n}）。失敗したページと重複ページも数える`,
    max_depth: (n, max) =>
      `開始ページからたどるリンクの深さの上限、0〜${max}（既定 ${n}。0 は開始ページのみ）`,
    crawl_query: (max) =>
      `このクエリに関係の深いページから先に取得し、小さな上限でも見つかるようにする（${max}文字まで）`,
    allow_subdomains: "サイトのドメインのサブドメインへのリンクもたどる（既定 false）",
    allow_external: "ほかのサイトへのリンクもたどる（既定 false）",
  },
};

const TEXTS: Readonly<Record<Locale, Texts>> = { en, ja };

/** The texts of a locale. */
export function textsFor(locale: Locale): Texts {
  return TEXTS[locale];
}
