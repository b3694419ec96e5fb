/**
 * Jest transformer: TypeScript and TSX to CommonJS with esbuild, which the build already uses and
 * which needs no TypeScript compiler API (TypeScript 7 has none). Types are checked by `tsc --noEmit`.
 * It also turns the few ESM-only packages the server uses (kysely, get-east-asian-width) into CommonJS: jest 29 loads every
 * module through its own CommonJS runtime, while Node itself loads them with require(esm).
 */
const { createHash } = require('node:crypto');
const { transformSync, version } = require('esbuild');

const options = (filename) => ({
  loader: /\.[jt]sx$/.test(filename) ? 'tsx' : /\.m?js$/.test(filename) ? 'js' : 'ts',
  format: 'cjs',
  target: 'node22',
  jsx: 'automatic',
  sourcemap: 'inline',
  sourcefile: filename,
});

module.exports = {
  process(source, filename) {
    return { code: transformSync(source, options(filename)).code };
  },
  getCacheKey(source, filename) {
    return createHash('sha256').update(version).update('\0').update(filename).update('\0').update(source).digest('hex');
  },
};
