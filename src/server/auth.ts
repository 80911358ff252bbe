/**
 * Bearer-token check. Both tokens are hashed first so the comparison runs over equal-length
 * digests in constant time: neither the token's characters nor its length leak through timing.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { errorResponse } from "./errors.js";

/** `Bearer <token>`, the scheme name case-insensitive (RFC 9110 §11.1). */
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/**
 * Middleware that answers 401 unless the request carries `Authorization: Bearer <token>`.
 *
 * @example
 * app.use("*", bearerAuth("s3cret"));
 */
export function bearerAuth(token: string): MiddlewareHandler {
  const expected = digest(token);
  return async (c, next) => {
    const given = BEARER.exec(c.req.header("authorization") ?? "")?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      return errorResponse(c, "UNAUTHORIZED", "Missing or wrong bearer token", {
        headers: { "WWW-Authenticate": 'Bearer realm="webfetch"' },
      });
    }
    await next();
  };
}
