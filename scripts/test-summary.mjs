// Prints "N passed, N failed" (and skipped) from a vitest JSON report: the closing line CI reads.
import { readFileSync } from "node:fs";

const path = process.argv[2];
let report;
try {
  report = JSON.parse(readFileSync(path, "utf8"));
} catch (error) {
  console.log(`0 passed, 1 failed (no test report: ${error.message})`);
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
// A file that fails to load has no failed tests but is a failed suite: count it once.
const failedTests = report.numFailedTests ?? 0;
const failed = failedTests > 0 ? failedTests : (report.numFailedTestSuites ?? 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
