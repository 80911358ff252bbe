// The webfetch playground: a form over POST /v1/fetch, the result shown as rendered Markdown and
// as source. Page content only ever becomes text nodes and elements made here: no innerHTML, and
// links only to http(s) targets, so nothing a fetched page says can run in this page.

const TOKEN_KEY = "webfetch.token";
const $ = (id) => document.getElementById(id);

const form = $("form");
const statusBox = $("status");
const errorBox = $("error");
const resultBox = $("result");
const tokenBox = $("token-box");
const tokenInput = $("token");

/** What /v1/info told: version, enabled tools, formats, render modes, whether a model answers prompts. */
let info;
/** The result on show, for the copy button. */
let shown;
/** The fetch in flight, cancelled by the next submit. */
let inflight;

// ---------------------------------------------------------------------------------------------
// The service

function token() {
  return sessionStorage.getItem(TOKEN_KEY) ?? "";
}

function headers(extra) {
  const all = { ...extra };
  if (token()) all.authorization = `Bearer ${token()}`;
  return all;
}

/** The service's `{error: {code, message}}`, or one made from the status when the body has none. */
async function failureOf(res) {
  try {
    const body = await res.json();
    if (body?.error?.code) return body.error;
  } catch {
    // Not JSON: described by its status below.
  }
  return { code: `HTTP_${res.status}`, message: res.statusText || "Request failed" };
}

async function loadInfo() {
  let res;
  try {
    res = await fetch("/v1/info", { headers: headers({ accept: "application/json" }) });
  } catch (error) {
    showError({ code: "NETWORK", message: String(error?.message ?? error) });
    return;
  }
  if (res.status === 401) {
    askToken(token() ? "The token was refused: enter the service's token." : undefined);
    return;
  }
  if (!res.ok) {
    showError(await failureOf(res));
    return;
  }
  info = await res.json();
  applyInfo(info);
}

function applyInfo(data) {
  $("version").textContent = data.version ? `v${data.version}` : "";
  fillSelect($("format"), data.formats, $("format").value || "markdown");
  const render = $("render");
  const chosen = render.value;
  render.replaceChildren(option("", `service default (${data.render ?? "auto"})`));
  for (const mode of data.renderModes ?? []) render.append(option(mode, mode));
  render.value = chosen;
  for (const node of document.querySelectorAll(".needs-model")) node.hidden = !data.model;
  if (data.auth) tokenBox.hidden = false;
  if (Array.isArray(data.tools) && !data.tools.includes("web_fetch")) {
    showError({ code: "NOT_FOUND", message: "web_fetch is disabled on this service" });
  }
}

function fillSelect(select, values, chosen) {
  if (!Array.isArray(values) || values.length === 0) return;
  select.replaceChildren(...values.map((value) => option(value, value)));
  select.value = values.includes(chosen) ? chosen : values[0];
}

function option(value, label) {
  const node = document.createElement("option");
  node.value = value;
  node.textContent = label;
  return node;
}

function askToken(message) {
  tokenBox.hidden = false;
  if (message) $("token-hint").textContent = message;
  setStatus("This service asks for a token: enter it, then fetch.");
  tokenInput.focus();
}

/** The web_fetch input (snake_case) the form describes, and the service's own `render`. */
function requestBody() {
  const body = { url: $("url").value.trim() };
  const format = $("format").value;
  if (format) body.extract_mode = format;
  const render = $("render").value;
  if (render) body.render = render;
  const maxLength = $("max-length").value.trim();
  if (maxLength) body.max_length = Number(maxLength);
  const include = selectors($("include").value);
  if (include.length) body.include_selectors = include;
  const exclude = selectors($("exclude").value);
  if (exclude.length) body.exclude_selectors = exclude;
  const query = $("query").value.trim();
  if (query) body.query = query;
  const prompt = $("prompt").value.trim();
  if (prompt && info?.model) body.prompt = prompt;
  if ($("links").checked) body.links = true;
  return body;
}

/** Comma-separated selectors; a comma inside brackets or parentheses stays in its selector. */
function selectors(text) {
  const out = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if (ch === "(" || ch === "[") depth++;
    else if ((ch === ")" || ch === "]") && depth > 0) depth--;
    if (ch === "," && depth === 0) {
      out.push(current);
      current = "";
    } else current += ch;
  }
  out.push(current);
  return out.map((s) => s.trim()).filter(Boolean);
}

async function submit(event) {
  event.preventDefault();
  storeToken();
  const body = requestBody();
  if (!body.url) {
    showError({ code: "INVALID_INPUT", message: "Enter a URL to fetch" });
    $("url").focus();
    return;
  }
  if (!info) await loadInfo();
  inflight?.abort();
  const controller = new AbortController();
  inflight = controller;
  const button = $("submit");
  button.disabled = true;
  hideError();
  setStatus(`Fetching ${body.url}…`);
  try {
    const res = await fetch("/v1/fetch", {
      method: "POST",
      headers: headers({ "content-type": "application/json", accept: "application/json" }),
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (res.status === 401) askToken(token() ? "The token was refused." : undefined);
    if (!res.ok) {
      resultBox.hidden = true;
      showError(await failureOf(res));
      setStatus("");
      return;
    }
    const result = await res.json();
    showResult(result);
    setStatus(`Fetched ${result.finalUrl} in ${ms(result.timings?.totalMs)}.`);
  } catch (error) {
    if (controller.signal.aborted) return;
    resultBox.hidden = true;
    showError({ code: "NETWORK", message: String(error?.message ?? error) });
    setStatus("");
  } finally {
    if (inflight === controller) {
      inflight = undefined;
      button.disabled = false;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Showing a result

function setStatus(text) {
  statusBox.textContent = text;
}

function showError(error) {
  const code = document.createElement("code");
  code.textContent = error.code;
  errorBox.replaceChildren(code, document.createTextNode(`: ${error.message ?? ""}`));
  errorBox.hidden = false;
}

function hideError() {
  errorBox.hidden = true;
  errorBox.replaceChildren();
}

const META = [
  ["Title", (r) => r.title],
  ["Author", (r) => r.author],
  ["Site", (r) => r.siteName],
  ["Published", (r) => r.publishedAt],
  ["Language", (r) => r.lang],
  ["Status", (r) => (r.status === undefined ? undefined : String(r.status))],
  ["Content type", (r) => (r.charset ? `${r.contentType}; charset=${r.charset}` : r.contentType)],
  ["Final URL", (r) => r.finalUrl, true],
  ["Format", (r) => r.format],
  [
    "Length",
    (r) =>
      `${r.content.length} of ${r.totalLength} characters from ${r.startIndex}${r.truncated ? " (truncated)" : ""}`,
  ],
  ["Cached", (r) => (r.cached ? `yes (fetched ${r.fetchedAt})` : "no")],
  [
    "Rendered",
    (r) => (r.rendered ? `yes (${r.blockedRequests ?? 0} requests blocked)` : undefined),
  ],
  ["Model", (r) => r.model],
  ["Note", (r) => r.note],
];

const PHASES = [
  ["DNS", "dnsMs"],
  ["Connect (TCP + TLS)", "connectMs"],
  ["First byte", "firstByteMs"],
  ["Convert", "convertMs"],
  ["Total", "totalMs"],
];

function showResult(result) {
  shown = result;
  $("result-title").textContent = result.title || result.finalUrl;

  const meta = $("meta");
  meta.replaceChildren();
  for (const [label, read, isLink] of META) {
    const value = read(result);
    if (value === undefined || value === "") continue;
    const dt = document.createElement("dt");
    dt.textContent = label;
    const dd = document.createElement("dd");
    dd.append(isLink ? safeLink(value, value) : document.createTextNode(value));
    meta.append(dt, dd);
  }

  const warnings = $("warnings");
  warnings.replaceChildren();
  warnings.hidden = !result.warnings?.length;
  if (result.warnings?.length) {
    const list = document.createElement("ul");
    for (const text of result.warnings) list.append(item(text));
    warnings.append(list);
  }

  renderMarkdown(
    $("panel-rendered"),
    result.format === "markdown" ? result.content : undefined,
    result.content,
  );
  $("source").textContent = result.content;

  const timings = $("timings");
  timings.replaceChildren();
  for (const [label, key] of PHASES) {
    const row = document.createElement("tr");
    const name = document.createElement("td");
    name.textContent = label;
    const value = document.createElement("td");
    value.textContent = ms(result.timings?.[key]);
    row.append(name, value);
    timings.append(row);
  }

  const redirects = $("redirects");
  redirects.replaceChildren();
  if (!result.redirects?.length) {
    const none = item("none");
    none.className = "none";
    redirects.append(none);
  }
  for (const hop of result.redirects ?? []) {
    const li = document.createElement("li");
    li.append(`${hop.status} `, safeLink(hop.from, hop.from), " → ", safeLink(hop.to, hop.to));
    redirects.append(li);
  }

  const linksBox = $("links-box");
  const links = $("links-list");
  links.replaceChildren();
  linksBox.hidden = !Array.isArray(result.links);
  for (const link of result.links ?? []) {
    const li = document.createElement("li");
    li.append(safeLink(link.url, link.text || link.url));
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.textContent = [link.internal ? "internal" : "external", link.inMain ? "main" : ""]
      .filter(Boolean)
      .join(", ");
    li.append(tag);
    links.append(li);
  }

  resultBox.hidden = false;
}

function ms(value) {
  return typeof value === "number" ? `${value.toFixed(value < 10 ? 2 : 0)} ms` : "—";
}

function item(text) {
  const li = document.createElement("li");
  li.textContent = text;
  return li;
}

/** A link to an http(s) URL, opening elsewhere; anything else stays plain text. */
function safeLink(url, text) {
  let target;
  try {
    target = new URL(url);
  } catch {
    target = undefined;
  }
  if (!target || (target.protocol !== "http:" && target.protocol !== "https:")) {
    return document.createTextNode(text);
  }
  const a = document.createElement("a");
  a.href = target.href;
  a.rel = "noopener noreferrer nofollow";
  a.target = "_blank";
  a.textContent = text;
  return a;
}

// ---------------------------------------------------------------------------------------------
// Markdown, rendered as elements made here: headings, paragraphs, lists, quotes, code, simple
// tables, emphasis, inline code and http(s) links. Anything else shows as the text it is.

/** Nesting of lists and quotes rendered at most; deeper content stays text. */
const MAX_DEPTH = 8;

function renderMarkdown(target, markdown, text) {
  if (markdown === undefined) {
    const pre = document.createElement("pre");
    pre.textContent = text;
    target.replaceChildren(pre);
    return;
  }
  target.replaceChildren(...blocks(markdown.replace(/\r\n?/g, "\n").split("\n"), 0));
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const LIST_ITEM = /^( *)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const TABLE_RULE = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;

function blocks(lines, depth) {
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === "") {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const close = fence[1];
      const code = [];
      i++;
      while (i < lines.length && !lines[i].trimStart().startsWith(close)) code.push(lines[i++]);
      i++;
      const pre = document.createElement("pre");
      const el = document.createElement("code");
      el.textContent = code.join("\n");
      pre.append(el);
      out.push(pre);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const h = document.createElement(`h${heading[1].length}`);
      h.append(...inline(heading[2]));
      out.push(h);
      i++;
      continue;
    }
    if (RULE.test(line)) {
      out.push(document.createElement("hr"));
      i++;
      continue;
    }
    if (QUOTE.test(line) && depth < MAX_DEPTH) {
      const inner = [];
      while (i < lines.length && lines[i].trim() !== "" && QUOTE.test(lines[i])) {
        inner.push(QUOTE.exec(lines[i])[1]);
        i++;
      }
      const quote = document.createElement("blockquote");
      quote.append(...blocks(inner, depth + 1));
      out.push(quote);
      continue;
    }
    const start = LIST_ITEM.exec(line);
    if (start && depth < MAX_DEPTH) {
      i = list(lines, i, start, depth, out);
      continue;
    }
    if (line.includes("|") && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1])) {
      i = table(lines, i, out);
      continue;
    }
    const para = [];
    while (
      i < lines.length &&
      lines[i].trim() !== "" &&
      !(para.length && (FENCE.test(lines[i]) || HEADING.test(lines[i]) || LIST_ITEM.test(lines[i])))
    ) {
      para.push(lines[i].trim());
      i++;
    }
    const p = document.createElement("p");
    para.forEach((text, n) => {
      if (n > 0) p.append(document.createElement("br"));
      p.append(...inline(text));
    });
    out.push(p);
  }
  return out;
}

/** A list from line `i` (its first item `start`): items at its indent, deeper lines inside them. */
function list(lines, i, start, depth, out) {
  const indent = start[1].length;
  const ordered = /\d/.test(start[2]);
  const el = document.createElement(ordered ? "ol" : "ul");
  if (ordered && Number.parseInt(start[2], 10) !== 1) el.start = Number.parseInt(start[2], 10);
  while (i < lines.length) {
    const match = LIST_ITEM.exec(lines[i]);
    if (!match || match[1].length !== indent || /\d/.test(match[2]) !== ordered) break;
    const body = [match[3]];
    i++;
    while (i < lines.length) {
      const next = lines[i];
      const nested = LIST_ITEM.exec(next);
      if (next.trim() === "") {
        // A blank line ends the item unless the next line is indented under it.
        if (i + 1 < lines.length && leading(lines[i + 1]) > indent) {
          body.push("");
          i++;
          continue;
        }
        break;
      }
      if (nested && nested[1].length <= indent) break;
      if (!nested && leading(next) <= indent && body.length > 1) break;
      body.push(next.slice(Math.min(leading(next), indent + 2)));
      i++;
    }
    const li = document.createElement("li");
    if (body.length === 1) li.append(...inline(body[0]));
    else li.append(...blocks(body, depth + 1));
    el.append(li);
    while (i < lines.length && lines[i].trim() === "") {
      const after = LIST_ITEM.exec(lines[i + 1] ?? "");
      if (!after || after[1].length !== indent) break;
      i++;
    }
  }
  out.push(el);
  return i;
}

function leading(line) {
  return line.length - line.trimStart().length;
}

function cells(row) {
  let text = row.trim();
  if (text.startsWith("|")) text = text.slice(1);
  if (text.endsWith("|") && !text.endsWith("\\|")) text = text.slice(0, -1);
  return text.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, "|"));
}

function table(lines, i, out) {
  const el = document.createElement("table");
  const head = document.createElement("thead");
  const headRow = document.createElement("tr");
  for (const cell of cells(lines[i])) {
    const th = document.createElement("th");
    th.append(...inline(cell));
    headRow.append(th);
  }
  head.append(headRow);
  el.append(head);
  const body = document.createElement("tbody");
  i += 2;
  while (i < lines.length && lines[i].includes("|") && lines[i].trim() !== "") {
    const tr = document.createElement("tr");
    for (const cell of cells(lines[i])) {
      const td = document.createElement("td");
      td.append(...inline(cell));
      tr.append(td);
    }
    body.append(tr);
    i++;
  }
  el.append(body);
  out.push(el);
  return i;
}

const CODE_SPAN = /^(`+)([\s\S]*?[^`])\1(?!`)/;
const LINK = /^(!?)\[((?:\\.|[^\\\]])*)\]\(\s*<?([^\s)>]*)>?(?:\s+"[^"]*")?\s*\)/;
const AUTOLINK = /^<(https?:\/\/[^\s<>]+)>/i;
const STRONG = /^(\*\*|__)(?=\S)([\s\S]*?\S)\1/;
const EMPHASIS = /^(\*|_)(?=\S)([\s\S]*?\S)\1(?![*_])/;
const STRIKE = /^~~(?=\S)([\s\S]*?\S)~~/;
const ESCAPABLE = /^\\([\\`*_{}[\]()#+\-.!|~<>])/;
/** Characters where an inline element may start. */
const SPECIAL = /[\\`*_[!<~]/;

/** The emphasis `text` starts with, as its element's tag and the match; undefined if none. */
function emphasis(text) {
  for (const [tag, pattern] of [
    ["strong", STRONG],
    ["del", STRIKE],
    ["em", EMPHASIS],
  ]) {
    const match = pattern.exec(text);
    if (match) return [tag, match];
  }
  return undefined;
}

/** Inline Markdown as nodes: code spans, links, emphasis; the rest as text. */
function inline(text, depth = 0) {
  const nodes = [];
  let plain = "";
  const flush = () => {
    if (plain) nodes.push(document.createTextNode(plain));
    plain = "";
  };
  let rest = text;
  while (rest.length > 0) {
    const at = rest.search(SPECIAL);
    if (at === -1) {
      plain += rest;
      break;
    }
    plain += rest.slice(0, at);
    rest = rest.slice(at);
    let m = ESCAPABLE.exec(rest);
    if (m) {
      plain += m[1];
      rest = rest.slice(m[0].length);
      continue;
    }
    m = CODE_SPAN.exec(rest);
    if (m) {
      flush();
      const code = document.createElement("code");
      code.textContent = m[2].replace(/^ (.*) $/, "$1");
      nodes.push(code);
      rest = rest.slice(m[0].length);
      continue;
    }
    m = LINK.exec(rest);
    if (m) {
      flush();
      const label = m[2].replace(/\\(.)/g, "$1");
      if (m[1]) {
        // Images stay links: the page loads nothing from the fetched site.
        nodes.push(safeLink(m[3], `[image: ${label || m[3]}]`));
      } else {
        const link = safeLink(m[3], "");
        if (link.nodeType === Node.ELEMENT_NODE) {
          link.textContent = "";
          link.append(...(depth < MAX_DEPTH ? inline(label, depth + 1) : [label]));
          nodes.push(link);
        } else {
          nodes.push(...(depth < MAX_DEPTH ? inline(label, depth + 1) : [label]));
        }
      }
      rest = rest.slice(m[0].length);
      continue;
    }
    m = AUTOLINK.exec(rest);
    if (m) {
      flush();
      nodes.push(safeLink(m[1], m[1]));
      rest = rest.slice(m[0].length);
      continue;
    }
    const styled = depth < MAX_DEPTH ? emphasis(rest) : undefined;
    if (styled) {
      flush();
      const [tag, match] = styled;
      const el = document.createElement(tag);
      el.append(...inline(match[match.length - 1], depth + 1));
      nodes.push(el);
      rest = rest.slice(match[0].length);
      continue;
    }
    plain += rest[0];
    rest = rest.slice(1);
  }
  flush();
  return nodes;
}

// ---------------------------------------------------------------------------------------------
// Tabs, copy, token, keyboard

function selectTab(which) {
  const tabs = [$("tab-rendered"), $("tab-source")];
  for (const tab of tabs) {
    const on = tab.id === `tab-${which}`;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    $(tab.getAttribute("aria-controls")).hidden = !on;
  }
}

for (const tab of [$("tab-rendered"), $("tab-source")]) {
  tab.addEventListener("click", () => selectTab(tab.id.slice(4)));
  tab.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const other = tab.id === "tab-rendered" ? "source" : "rendered";
    selectTab(other);
    $(`tab-${other}`).focus();
    event.preventDefault();
  });
}

$("copy").addEventListener("click", async () => {
  if (!shown) return;
  try {
    await navigator.clipboard.writeText(shown.content);
  } catch {
    // No clipboard API here (an insecure origin): copy the selected source instead.
    selectTab("source");
    const range = document.createRange();
    range.selectNodeContents($("source"));
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    document.execCommand("copy");
  }
  setStatus(`Copied ${shown.content.length} characters.`);
});

/** Keeps the token field's value for this tab; true when it changed. */
function storeToken() {
  const value = tokenInput.value.trim();
  if (value === token()) return false;
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
  info = undefined;
  return true;
}

tokenInput.value = token();
tokenInput.addEventListener("change", () => {
  if (!storeToken()) return;
  hideError();
  void loadInfo();
});

// Enter submits from any field; in the prompt, Ctrl+Enter (a plain Enter starts a new line).
$("prompt").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) form.requestSubmit();
});

form.addEventListener("submit", submit);
$("url").focus();
void loadInfo();
