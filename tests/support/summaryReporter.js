/**
 * Prints one plain closing line, "Summary: N passed, N failed, N skipped", that CI tools read
 * whatever the test runner (jest's own summary is not in a form they know).
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `Summary: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`;
    // Jest's own summary goes to stderr; writing there too keeps this line last in a combined log.
    process.stdout.write(`\n${line}`);
    process.stderr.write(`\n${line}`);
  }
}

module.exports = SummaryReporter;
