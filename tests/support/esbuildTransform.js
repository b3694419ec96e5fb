/**
 * Jest transformer: TypeScript and TSX to CommonJS with esbuild, which the build already uses and
 * which needs no TypeScript compiler API (TypeScript 7 has none). Types are checked by `tsc --noEmit`.
 */
const { createHash } = require('node:crypto');
const { transformSync, version } = require('esbuild');

const options = (filename) => ({
  loader: /\.[jt]sx$/.test(filename) ? 'tsx' : 'ts',
  format: 'cjs',
  target: 'node20',
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
