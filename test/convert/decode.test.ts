import { describe, expect, it } from "vitest";
import { charsetFromContentType, decodeBody } from "../../src/convert/decode.js";

// Tiny encoders built from the decoders themselves (no iconv, no network): decode every 1- and
// 2-byte sequence once and keep the first byte sequence that yields each character.
const encoderCache = new Map<string, Map<string, number[]>>();
function reverseMap(charset: string): Map<string, number[]> {
  let map = encoderCache.get(charset);
  if (map) return map;
  map = new Map();
  const decoder = new TextDecoder(charset, { fatal: true });
  for (let b = 0; b < 0x100; b++) {
    try {
      const ch = decoder.decode(new Uint8Array([b]));
      if (!map.has(ch)) map.set(ch, [b]);
    } catch {}
  }
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      try {
        const ch = decoder.decode(new Uint8Array([lead, trail]));
        if ([...ch].length === 1 && !map.has(ch)) map.set(ch, [lead, trail]);
      } catch {}
    }
  }
  encoderCache.set(charset, map);
  return map;
}

function encode(text: string, charset: string): Uint8Array {
  if (charset === "utf-8") return new TextEncoder().encode(text);
  if (charset === "iso-2022-jp") return encodeIso2022Jp(text);
  const map = reverseMap(charset);
  const out: number[] = [];
  for (const ch of text) {
    const bytes = map.get(ch);
    if (!bytes) throw new Error(`${charset} cannot encode ${ch}`);
    out.push(...bytes);
  }
  return new Uint8Array(out);
}

/** ISO-2022-JP = EUC-JP's JIS X 0208 pairs minus 0x80, between ESC $ B and ESC ( B. */
function encodeIso2022Jp(text: string): Uint8Array {
  const out: number[] = [];
  let jis = false;
  for (const ch of text) {
    const euc = reverseMap("euc-jp").get(ch)!;
    if (euc.length === 2) {
      if (!jis) out.push(0x1b, 0x24, 0x42);
      jis = true;
      out.push(euc[0]! - 0x80, euc[1]! - 0x80);
    } else {
      if (jis) out.push(0x1b, 0x28, 0x42);
      jis = false;
      out.push(euc[0]!);
    }
  }
  if (jis) out.push(0x1b, 0x28, 0x42);
  return new Uint8Array(out);
}

const concat = (...parts: (Uint8Array | string)[]): Uint8Array =>
  new Uint8Array(
    parts.flatMap((p) => [...(typeof p === "string" ? new TextEncoder().encode(p) : p)]),
  );

// windows-1252 is hand-encoded: Node 20's own windows-1252 decoder is ISO-8859-1.
const WIN1252_TEXT = "“Café” – 5 €";
const WIN1252_BYTES = new Uint8Array([
  0x93, 0x43, 0x61, 0x66, 0xe9, 0x94, 0x20, 0x96, 0x20, 0x35, 0x20, 0x80,
]);

const CASES: { charset: string; label: string; text: string }[] = [
  { charset: "shift_jis", label: "Shift_JIS", text: "日本語のページ" },
  { charset: "euc-jp", label: "EUC-JP", text: "日本語のページ" },
  { charset: "iso-2022-jp", label: "ISO-2022-JP", text: "日本語のページ" },
  { charset: "gbk", label: "GB2312", text: "中文网页" },
  { charset: "big5", label: "Big5", text: "中文網頁" },
  { charset: "euc-kr", label: "EUC-KR", text: "한국어 페이지" },
  { charset: "windows-1251", label: "windows-1251", text: "Привет, мир" },
  { charset: "iso-8859-2", label: "ISO-8859-2", text: "Zażółć gęślą jaźń" },
];

describe("decodeBody: declared charsets", () => {
  for (const { charset, label, text } of CASES) {
    it(`${charset} from the Content-Type header`, () => {
      const bytes = concat("<p>", encode(text, charset), "</p>");
      expect(decodeBody(bytes, `text/html; charset=${label}`, "html")).toEqual({
        text: `<p>${text}</p>`,
        charset,
      });
    });

    it(`${charset} from <meta charset>`, () => {
      const bytes = concat(`<!doctype html><meta charset="${label}"><p>`, encode(text, charset));
      expect(decodeBody(bytes, "text/html", "html").charset).toBe(charset);
      expect(decodeBody(bytes, "text/html", "html").text).toContain(text);
    });

    it(`${charset} from <meta http-equiv content>`, () => {
      const bytes = concat(
        `<html><head><meta http-equiv="Content-Type" content="text/html; charset=${label}">`,
        encode(text, charset),
      );
      expect(decodeBody(bytes, undefined, "html")).toMatchObject({ charset });
      expect(decodeBody(bytes, undefined, "html").text).toContain(text);
    });
  }

  it("windows-1252 with smart quotes, dash and euro sign (0x80–0x9F)", () => {
    expect(decodeBody(WIN1252_BYTES, "text/plain; charset=windows-1252")).toEqual({
      text: WIN1252_TEXT,
      charset: "windows-1252",
    });
    const meta = concat('<meta charset="iso-8859-1">', WIN1252_BYTES);
    expect(decodeBody(meta, undefined, "html")).toEqual({
      text: `<meta charset="iso-8859-1">${WIN1252_TEXT}`,
      charset: "windows-1252",
    });
  });

  it("iso-8859-16, which Node's TextDecoder lacks", () => {
    const bytes = new Uint8Array([
      0x52, 0x6f, 0x6d, 0xe2, 0x6e, 0x69, 0x61, 0x20, 0xaa, 0xba, 0xde, 0xfe,
    ]);
    expect(decodeBody(bytes, "text/plain; charset=ISO-8859-16")).toEqual({
      text: "România ȘșȚț",
      charset: "iso-8859-16",
    });
  });

  it("header wins over <meta>", () => {
    const bytes = concat('<meta charset="euc-jp">', encode("日本", "shift_jis"));
    expect(decodeBody(bytes, "text/html; charset=shift_jis", "html").charset).toBe("shift_jis");
  });

  it("XML declaration for xml, ignored for other kinds", () => {
    const bytes = concat(
      '<?xml version="1.0" encoding="EUC-JP"?><t>',
      encode("日本語", "euc-jp"),
      "</t>",
    );
    expect(decodeBody(bytes, "application/xml", "xml")).toEqual({
      text: '<?xml version="1.0" encoding="EUC-JP"?><t>日本語</t>',
      charset: "euc-jp",
    });
    // As "other", the declaration is not read, but the guess still finds EUC-JP.
    expect(decodeBody(bytes, undefined, "other").charset).toBe("euc-jp");
  });

  it("a declared charset is kept even when the bytes do not fit it", () => {
    const bytes = encode("日本語のページです", "shift_jis");
    const result = decodeBody(bytes, "text/html; charset=utf-8", "html");
    expect(result.charset).toBe("utf-8");
    expect(result.text).toContain("\ufffd");
  });
});

describe("decodeBody: labels", () => {
  it.each([
    ["sjis", "shift_jis"],
    ["x-sjis", "shift_jis"],
    ["shift-jis", "shift_jis"],
    ["MS932", "shift_jis"],
    ["cp932", "shift_jis"],
    ["x-euc-jp", "euc-jp"],
    ["gb2312", "gbk"],
    ["latin1", "windows-1252"],
    ["ISO-8859-1", "windows-1252"],
    ["us-ascii", "windows-1252"],
    ["ks_c_5601-1987", "euc-kr"],
    [" UTF-8 ", "utf-8"],
    ['"utf-8"', "utf-8"],
  ])("%s → %s", (label, charset) => {
    const value = label.startsWith('"') ? label : label.trim();
    expect(charsetFromContentType(`text/html; charset=${value}`)).toBe(charset);
  });

  it("unknown, missing and hostile labels give undefined", () => {
    expect(charsetFromContentType("text/html; charset=klingon")).toBeUndefined();
    expect(charsetFromContentType("text/html; charset=constructor")).toBeUndefined();
    expect(charsetFromContentType("text/html; charset=iso-2022-kr")).toBeUndefined();
    expect(charsetFromContentType("text/html")).toBeUndefined();
    expect(charsetFromContentType(undefined)).toBeUndefined();
    expect(charsetFromContentType("text/html; xcharset=utf-8")).toBeUndefined();
  });

  it("an unknown header label falls through to <meta>", () => {
    const bytes = concat('<meta charset="sjis">', encode("日本", "shift_jis"));
    expect(decodeBody(bytes, "text/html; charset=bogus", "html")).toEqual({
      text: '<meta charset="sjis">日本',
      charset: "shift_jis",
    });
  });

  it("unknown labels everywhere: UTF-8", () => {
    const bytes = concat('<meta charset="bogus"><p>héllo</p>');
    expect(decodeBody(bytes, "text/html; charset=nope", "html")).toEqual({
      text: '<meta charset="bogus"><p>héllo</p>',
      charset: "utf-8",
    });
  });
});

describe("decodeBody: BOMs", () => {
  it("UTF-8 BOM beats the header and is removed", () => {
    const bytes = concat(new Uint8Array([0xef, 0xbb, 0xbf]), "héllo");
    expect(decodeBody(bytes, "text/plain; charset=shift_jis")).toEqual({
      text: "héllo",
      charset: "utf-8",
    });
  });

  it("UTF-16LE and UTF-16BE BOMs", () => {
    const le = new Uint8Array([0xff, 0xfe, 0x3c, 0, 0x70, 0, 0x3e, 0, 0xe5, 0x65, 0x2c, 0x67]);
    expect(decodeBody(le, undefined, "html")).toEqual({ text: "<p>日本", charset: "utf-16le" });
    const be = new Uint8Array([0xfe, 0xff, 0, 0x3c, 0, 0x70, 0, 0x3e, 0x65, 0xe5, 0x67, 0x2c]);
    expect(decodeBody(be, "text/html; charset=iso-8859-1", "html")).toEqual({
      text: "<p>日本",
      charset: "utf-16be",
    });
  });
});

describe("decodeBody: <meta> prescan details", () => {
  it("a <meta> that says UTF-16 means UTF-8", () => {
    const bytes = concat('<meta charset="utf-16le"><p>héllo');
    expect(decodeBody(bytes, undefined, "html")).toEqual({
      text: '<meta charset="utf-16le"><p>héllo',
      charset: "utf-8",
    });
  });

  it("ignores <meta> inside comments, in other tags' attributes and past 1024 bytes", () => {
    const sjis = encode("日本語", "shift_jis");
    const inComment = concat('<!-- <meta charset="euc-jp"> --><meta charset="shift_jis">', sjis);
    expect(decodeBody(inComment, undefined, "html").charset).toBe("shift_jis");
    const inAttribute = concat('<div title="<meta charset=euc-jp>"><meta charset=shift_jis>', sjis);
    expect(decodeBody(inAttribute, undefined, "html").charset).toBe("shift_jis");
    const late = concat(`<!doctype html>${" ".repeat(1100)}<meta charset="euc-jp">`);
    expect(decodeBody(late, undefined, "html").charset).toBe("utf-8");
  });

  it("content= without http-equiv is ignored; unquoted and odd spacing accepted", () => {
    const noPragma = concat('<meta content="text/html; charset=euc-jp">');
    expect(decodeBody(noPragma, undefined, "html").charset).toBe("utf-8");
    const unquoted = concat(
      "<META HTTP-EQUIV=content-type CONTENT='text/html;charset = \"EUC-JP\"'>",
      encode("日本語", "euc-jp"),
    );
    expect(decodeBody(unquoted, undefined, "html").charset).toBe("euc-jp");
  });

  it("is not read for non-HTML kinds", () => {
    const bytes = concat('<meta charset="shift_jis">plain');
    expect(decodeBody(bytes, "text/plain", "other").charset).toBe("utf-8");
  });
});

describe("decodeBody: nothing declared", () => {
  it("valid UTF-8, including a character cut off at the end", () => {
    expect(decodeBody(concat("日本語"))).toEqual({ text: "日本語", charset: "utf-8" });
    const cut = concat("日本語").subarray(0, 8);
    expect(decodeBody(cut)).toEqual({ text: "日本\ufffd", charset: "utf-8" });
  });

  it("ISO-2022-JP by its escape sequences", () => {
    expect(decodeBody(encode("これは日本語です", "iso-2022-jp"))).toEqual({
      text: "これは日本語です",
      charset: "iso-2022-jp",
    });
  });

  const guesses: [string, string][] = [
    ["shift_jis", "<p>日本語のテキストです。今日は天気がいいので、公園に散歩に行きました。</p>"],
    ["euc-jp", "<p>日本語のテキストです。今日は天気がいいので、公園に散歩に行きました。</p>"],
    ["gbk", "<p>这是一个中文网页。今天天气很好，我们去公园散步了。</p>"],
    ["big5", "<p>這是一個中文網頁。今天天氣很好，我們去公園散步了。</p>"],
    [
      "euc-kr",
      "<p>이것은 한국어 웹 페이지입니다. 오늘은 날씨가 좋아서 공원에 산책을 갔습니다.</p>",
    ],
  ];
  for (const [charset, text] of guesses) {
    it(`invalid UTF-8 guessed as ${charset}`, () => {
      expect(decodeBody(encode(text, charset), undefined, "html")).toEqual({ text, charset });
    });
  }

  it("Latin text that is not UTF-8 falls back to windows-1252", () => {
    expect(decodeBody(WIN1252_BYTES)).toEqual({ text: WIN1252_TEXT, charset: "windows-1252" });
    const german = new Uint8Array([
      ...new TextEncoder().encode("Gr"),
      0xfc,
      0xdf,
      0x65,
      0x20,
      0x61,
      0x75,
      0x73,
    ]);
    expect(decodeBody(german)).toEqual({ text: "Grüße aus", charset: "windows-1252" });
  });

  it("empty body", () => {
    expect(decodeBody(new Uint8Array(0), undefined, "html")).toEqual({
      text: "",
      charset: "utf-8",
    });
  });
});
