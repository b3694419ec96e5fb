import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../server/lib/paths';

/**
 * The built server and its worker threads run React's production build: React stays in node_modules and
 * picks its build by NODE_ENV when first required, so each bundle sets NODE_ENV to production, unless it
 * is set, before its first require (build.ts). Under `npm start` it was unset, and /admin rendered with the
 * development build, 3 to 7 times slower.
 */
const bundles = ['main', 'reportWorker', 'backupWorker'].map((name) => path.join(projectRoot, 'dist/server', `${name}.cjs`));

describe('the built server bundles', () => {
  it.each(bundles)('%s sets NODE_ENV to production before anything else runs', (file) => {
    const [first] = readFileSync(file, 'utf8').split('\n');
    expect(first).toBe("process.env.NODE_ENV ??= 'production';");
  });

  it('leave a NODE_ENV the operator set as it is', () => {
    const banner = readFileSync(bundles[0]!, 'utf8').split('\n')[0]!;
    const run = (env: NodeJS.ProcessEnv) => execFileSync(process.execPath, ['-e', `${banner} process.stdout.write(String(process.env.NODE_ENV))`], { env, encoding: 'utf8' });
    const { NODE_ENV: _unset, ...without } = process.env;
    expect(run(without)).toBe('production');
    expect(run({ ...without, NODE_ENV: 'development' })).toBe('development');
  });
});
