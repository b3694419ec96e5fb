/**
 * Two projects: fast tests in Node (units and supertest on the app factory) and browser tests
 * through puppeteer-core and Debian's Chromium. TypeScript is compiled by esbuild (tests/support/esbuildTransform.js),
 * which needs no TypeScript compiler API; types are checked separately by `tsc --noEmit`.
 */
const transform = {
  '^.+\\.tsx?$': '<rootDir>/tests/support/esbuildTransform.js',
  '/node_modules/kysely/.+\\.js$': '<rootDir>/tests/support/esbuildTransform.js',
};
/** node_modules is left as it is, but for the ESM-only packages the transformer turns into CommonJS. */
const transformIgnorePatterns = ['/node_modules/(?!kysely/)'];

/** @type {import('jest').Config} */
module.exports = {
  globalSetup: '<rootDir>/tests/support/globalSetup.ts',
  globalTeardown: '<rootDir>/tests/support/globalTeardown.ts',
  // Browser tests load real pages, and the carousel's wait on real 3.5 s and 10 s timings (a global option in jest).
  testTimeout: 30_000,
  reporters: ['default', '<rootDir>/tests/support/summaryReporter.js'],
  projects: [
    {
      displayName: 'node',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/tests/unit/**/*.test.ts?(x)', '<rootDir>/tests/server/**/*.test.ts?(x)'],
    },
    {
      displayName: 'browser',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/tests/e2e/**/*.test.ts?(x)'],
      slowTestThreshold: 30,
    },
  ],
};
