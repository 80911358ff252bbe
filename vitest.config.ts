import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Says once which services (Chromium, redis-server) are missing, or fails the run in CI.
    globalSetup: ["test/helpers/services-setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
  },
});
