import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Says once which services (Chromium, redis-server) are missing, or fails the run in CI.
    globalSetup: ["test/helpers/services-setup.ts"],
    // Generous: on a busy 2-core machine a child process or a 20 MB conversion takes many times
    // its usual time; a test that hangs still fails, a minute later.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
