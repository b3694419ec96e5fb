/**
 * Three projects: fast tests in Node (units and supertest on the app factory), browser tests through
 * puppeteer-core and Debian's Chromium, and the few files that load the whole machine on purpose, run
 * alone. TypeScript is compiled by esbuild (tests/support/esbuildTransform.js), which needs no TypeScript
 * compiler API; types are checked separately by `tsc --noEmit`.
 *
 * The node and browser files run side by side in `maxWorkers` processes: most of their time is spent
 * waiting (on a browser, a PostgreSQL cluster, a child process, a timer), and none shares a port, a
 * database, a cgroup or a folder with another (each takes a free port, a database and a temporary folder
 * of its own). The `alone` files run after or before them, one at a time (tests/support/serialRunner.js).
 * docs/testing.md says how long each part takes and why.
 */
const transform = {
  '^.+\\.tsx?$': '<rootDir>/tests/support/esbuildTransform.js',
  '/node_modules/(kysely|get-east-asian-width)/.+\\.js$': '<rootDir>/tests/support/esbuildTransform.js',
};
/** node_modules is left as it is, but for the ESM-only packages the transformer turns into CommonJS. */
const transformIgnorePatterns = ['/node_modules/(?!(kysely|get-east-asian-width)/)'];

/**
 * Each loads the machine on purpose and measures what it can take: a flood of reports inside a 256 MB
 * cgroup, a full disk under a running server, nginx in front of instances under load. Beside other files
 * each would measure them too, and slow their timings down.
 */
const alone = ['tests/server/memoryLimit.test.ts', 'tests/server/fullDisk.test.ts', 'tests/e2e/severalInstances.test.ts'];

/** @type {import('jest').Config} */
module.exports = {
  globalSetup: '<rootDir>/tests/support/globalSetup.ts',
  globalTeardown: '<rootDir>/tests/support/globalTeardown.ts',
  // Browser tests load real pages, and the carousel's wait on real 3.5 s and 10 s timings (a global option in jest).
  testTimeout: 30_000,
  // Two cores here: three files at once keep both busy while most of them wait (docs/testing.md).
  maxWorkers: 3,
  reporters: ['default', '<rootDir>/tests/support/slowestFilesReporter.js', '<rootDir>/tests/support/summaryReporter.js'],
  projects: [
    {
      displayName: 'node',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/tests/unit/**/*.test.ts?(x)', '<rootDir>/tests/server/**/*.test.ts?(x)'],
      testPathIgnorePatterns: ['/node_modules/', ...alone],
    },
    {
      displayName: 'browser',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/tests/e2e/**/*.test.ts?(x)'],
      testPathIgnorePatterns: ['/node_modules/', ...alone],
      slowTestThreshold: 30,
    },
    {
      displayName: 'alone',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      runner: '<rootDir>/tests/support/serialRunner.js',
      testMatch: alone.map((file) => `<rootDir>/${file}`),
      slowTestThreshold: 30,
    },
  ],
};
