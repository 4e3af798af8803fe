// Lists the tests that failed and then passed on CI's one retry (vitest.config.ts), with the
// first attempt's errors: the default reporter shows them as plain passes, and a flaky test is a
// race to fix (in the test or, as with load balancing's allocations, in the product).
import type { Reporter, TestCase } from "vitest/node";

export default class FlakyReporter implements Reporter {
  private readonly flaky: TestCase[] = [];

  onTestCaseResult(test: TestCase) {
    if (test.diagnostic()?.flaky) this.flaky.push(test);
  }

  onTestRunEnd() {
    if (this.flaky.length === 0) return;
    const lines = [`\n${this.flaky.length} test(s) passed only on retry — flaky, fix them:`];
    for (const test of this.flaky) {
      lines.push(`  ${test.module.moduleId.replace(process.cwd() + "/", "")} > ${test.fullName}`);
      for (const error of test.result().errors ?? []) lines.push(`      ${(error.message ?? String(error)).split("\n")[0]}`);
    }
    console.log(lines.join("\n"));
  }
}
