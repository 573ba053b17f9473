/**
 * The end of a browser run: every test that did not pass at its first try, named with its project
 * and the start of its error, and the totals. With `outputFile` (scripts/test.ts sets it) they are
 * written there as one JSON object for `npm test`'s own end; without, printed after the run's
 * output, ending with one line "N passed, N failed".
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { FullResult, Reporter, Suite, TestCase, TestError } from "@playwright/test/reporter";
import { errorHead } from "../../../scripts/lib/error-head";

export interface BrowserSummary {
  passed: number;
  failed: number;
  skipped: number;
  /** Each failure, named, with the start of its error. */
  failures: string[];
  status: FullResult["status"];
}

export default class SummaryReporter implements Reporter {
  private root?: Suite;
  private readonly errors: TestError[] = [];

  constructor(private readonly options: { outputFile?: string } = {}) {}

  printsToStdio() {
    return !this.options.outputFile;
  }

  onBegin(_config: unknown, suite: Suite) {
    this.root = suite;
  }

  /** Errors outside any test: a web server that did not start, a spec that does not load. */
  onError(error: TestError) {
    this.errors.push(error);
  }

  onEnd(result: FullResult) {
    const summary: BrowserSummary = { passed: 0, failed: 0, skipped: 0, failures: [], status: result.status };
    for (const test of this.root?.allTests() ?? []) {
      const outcome = test.outcome();
      if (outcome === "expected") summary.passed++;
      else if (outcome === "skipped") summary.skipped++;
      else {
        summary.failed++;
        summary.failures.push(this.named(test, outcome));
      }
    }
    for (const error of this.errors)
      summary.failures.push(`outside any test\n${errorHead(error.message ?? error.value)}`);
    // Interrupted, timed out, or an error outside any test: the run failed even if no test did.
    if (result.status !== "passed" && summary.failed === 0) {
      summary.failed = 1;
      if (summary.failures.length === 0)
        summary.failures.push(`the browser run ended "${result.status}" outside any test`);
    }
    if (this.options.outputFile) {
      writeFileSync(this.options.outputFile, `${JSON.stringify(summary)}\n`);
      return;
    }
    if (summary.failures.length > 0) {
      console.log(`\nFailed (${summary.failures.length}):`);
      for (const failure of summary.failures) console.log(`  ✘ ${failure}`);
    }
    console.log(
      `${summary.passed} passed, ${summary.failed} failed${summary.skipped ? `, ${summary.skipped} skipped` : ""}`,
    );
  }

  /** `[project] tests/e2e/file.spec.ts:12 › describe › title (unexpected)` and the last try's error. */
  private named(test: TestCase, outcome: string): string {
    const [, project, , ...titles] = test.titlePath();
    const file = path.relative(process.cwd(), test.location.file);
    const failedTry = [...test.results].reverse().find((result) => result.error) ?? test.results[0];
    return `[${project}] ${file}:${test.location.line} › ${titles.join(" › ")} (${outcome})\n${errorHead(failedTry?.error?.message)}`;
  }
}
