/**
 * The bearer token: with one configured every route but /health answers 401 without it (or
 * with a wrong one, of any length), and serves with it.
 */
import { describe, expect, it } from "vitest";
import { serviceSuite } from "./helpers.js";

const TOKEN = "s3cret-token";
const s = serviceSuite({ server: { token: TOKEN } });

describe("auth on", () => {
  it("leaves /health open", async () => {
    expect((await s.get("/health")).status).toBe(200);
  });

  it("answers 401 without the token, or with a wrong one", async () => {
    for (const authorization of [undefined, "Bearer wrong", `Bearer ${TOKEN}x`, TOKEN, "Basic x"]) {
      const res = await s.post(
        "/v1/fetch",
        { url: s.page("/article") },
        authorization ? { authorization } : {},
      );
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="webfetch"');
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("UNAUTHORIZED");
    }
    expect((await s.get(`/${s.page("/article")}`)).status).toBe(401);
    expect((await s.post("/md", { url: s.page("/article") })).status).toBe(401);
    expect((await s.post("/mcp", {})).status).toBe(401);
  });

  it("serves with the token, the scheme in any case", async () => {
    const res = await s.post(
      "/md",
      { url: s.page("/article") },
      { authorization: `bearer ${TOKEN}` },
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
  });

  it("checks the token before reading a large body", async () => {
    const res = await s.post("/v1/fetch", "x".repeat(2 * 1024 * 1024));
    expect(res.status).toBe(401);
  });
});
