# The webfetch HTTP service (`webfetch serve`), for running the fetcher apart from the agent's
# host: the agent sets `endpoint` (or `tools.web_fetch.api_endpoint`) to this service.
#
#   docker build -t webfetch .
#   docker run -p 8787:8787 -e WEBFETCH_API_TOKEN=change-me webfetch
#
# `--build-arg WITH_CHROMIUM=1` adds Debian's Chromium for `render` (about 300 MB more); without
# it, `render: auto` keeps the static result and `always` answers RENDER_FAILED.
#
# Build stage: all dependencies, compile TypeScript.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

# Runtime stage: production dependencies and the compiled code only, as the unprivileged user.
FROM node:20-slim
ARG WITH_CHROMIUM=0
RUN if [ "$WITH_CHROMIUM" = "1" ]; then \
      apt-get update && apt-get install -y --no-install-recommends chromium fonts-liberation \
      && rm -rf /var/lib/apt/lists/*; \
    fi
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# Install scripts stay off but for better-sqlite3's (its native module, for cache.store sqlite;
# optional: the memory and Redis stores work without it).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
    && (npm rebuild better-sqlite3 || echo "better-sqlite3 unavailable: cache.store sqlite disabled") \
    && npm cache clean --force
COPY --from=build /app/dist ./dist
USER node
EXPOSE 8787
# Inside the container the service must listen beyond loopback to be reachable; set
# WEBFETCH_API_TOKEN so that every route but /health asks for it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8787/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/bin/webfetch.js", "serve", "--host", "0.0.0.0", "--port", "8787"]
