/**
 * Runs once before the test files: names each missing service in one line (its suites skip
 * themselves), or, with WEBFETCH_REQUIRE_SERVICES set, fails the run so that CI cannot pass with
 * those suites skipped.
 */
import { missingServices, REQUIRE_SERVICES, servicesRequired } from "./services.js";

export default function setup(): void {
  const missing = missingServices();
  if (missing.length === 0) return;
  if (servicesRequired()) {
    throw new Error(
      `${REQUIRE_SERVICES} is set, so no test may be skipped for a missing service:\n${missing
        .map((m) => m.line.replace(/^skipped: /, ""))
        .join("\n")}`,
    );
  }
  for (const { line } of missing) console.warn(line);
}
