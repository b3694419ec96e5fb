const path = require('node:path');

/** How many of the slowest files the table names. */
const shown = 15;

/**
 * Ends every run with the slowest test files and their seconds, from jest's own results (each file's
 * perfStats: from its first line run to its last test done, setup and teardown included), and the run's
 * wall time, so where the suite's time goes is printed, not guessed (docs/testing.md keeps the table).
 */
class SlowestFilesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const files = results.testResults
      .filter((file) => file.perfStats && file.perfStats.end > 0)
      .map((file) => ({ file: path.relative(this.rootDir, file.testFilePath), seconds: (file.perfStats.end - file.perfStats.start) / 1000 }))
      .sort((a, b) => b.seconds - a.seconds);
    if (files.length === 0) return;
    const total = files.reduce((sum, file) => sum + file.seconds, 0);
    const wall = (Date.now() - results.startTime) / 1000;
    const lines = files.slice(0, shown).map(({ file, seconds }) => `${seconds.toFixed(1).padStart(7)} s  ${file}`);
    process.stdout.write(
      `\nThe ${Math.min(shown, files.length)} slowest of ${files.length} test files (their own seconds; ${total.toFixed(0)} s in all, ${wall.toFixed(0)} s of wall time since jest started):\n${lines.join('\n')}\n`,
    );
  }
}

module.exports = SlowestFilesReporter;
