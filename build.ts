/**
 * Builds the site into dist/: the client (ESM, minified, code-split, content-hashed, one chunk per
 * island), the CSS (bundled and hashed the same way), precompressed copies of both, the asset
 * manifest derived from esbuild's metafile, and the server bundle.
 *
 *   tsx build.ts             build
 *   tsx build.ts --if-stale  build only when a source changed since the last build (npm start uses this)
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { AssetManifest, ScriptAsset } from './server/manifest';
import { compressText } from './server/staticEntry';
import { islandLoaders } from './shared/islands/registry';

const root = __dirname;
const distDir = path.join(root, 'dist');
const assetsDir = path.join(distDir, 'assets');
const stampFile = path.join(distDir, 'build-stamp');
const clientEntry = 'client/main.ts';
const styleEntry = 'client/styles/main.css';

/** Everything the build output depends on; a change to any of these makes the build stale. */
const sourceRoots = ['client', 'shared', 'server', 'build.ts', 'tsconfig.json', 'package-lock.json'];

function sourceFiles(entry: string): string[] {
  const absolute = path.join(root, entry);
  if (!existsSync(absolute)) return [];
  if (!statSync(absolute).isDirectory()) return [entry];
  return readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((dirent) => dirent.isFile())
    .map((dirent) => path.relative(root, path.join(dirent.parentPath, dirent.name)));
}

function sourceStamp(): string {
  const hash = createHash('sha256');
  for (const file of sourceRoots.flatMap(sourceFiles).sort()) {
    hash.update(file).update('\0').update(readFileSync(path.join(root, file))).update('\0');
  }
  return hash.digest('hex');
}

const urlOf = (outputPath: string) => `/assets/${path.relative('dist/assets', outputPath).split(path.sep).join('/')}`;

/** A script output and, transitively, every chunk it imports statically. */
function scriptAsset(metafile: esbuild.Metafile, outputPath: string): ScriptAsset {
  const seen = new Set<string>();
  const visit = (file: string) => {
    for (const imported of metafile.outputs[file]?.imports ?? []) {
      if (imported.kind !== 'import-statement' || seen.has(imported.path)) continue;
      seen.add(imported.path);
      visit(imported.path);
    }
  };
  visit(outputPath);
  return { file: urlOf(outputPath), imports: [...seen].map(urlOf) };
}

function manifestFrom(metafile: esbuild.Metafile, entryMetafile: esbuild.Metafile): AssetManifest {
  const outputs = [...Object.entries(metafile.outputs), ...Object.entries(entryMetafile.outputs)];
  const outputFor = (entryPoint: string) => {
    const found = outputs.find(([file, output]) => output.entryPoint === entryPoint && !file.endsWith('.map'));
    if (!found) throw new Error(`esbuild produced no output for ${entryPoint}`);
    return found[0];
  };
  const islands: Record<string, ScriptAsset> = {};
  for (const name of Object.keys(islandLoaders)) {
    islands[name] = scriptAsset(metafile, outputFor(`shared/islands/${name}.tsx`));
  }
  // The runtime is two modules the entry imports by URL; the hydrator's chunks carry React.
  const hydrator = scriptAsset(metafile, outputFor('client/islandHydrator.tsx'));
  const navigation = scriptAsset(metafile, outputFor('client/navigation.ts'));
  return {
    entry: scriptAsset(entryMetafile, outputFor(clientEntry)),
    runtime: { file: hydrator.file, imports: [...new Set([...hydrator.imports, navigation.file, ...navigation.imports])] },
    runtimeModules: { hydrator: hydrator.file, navigation: navigation.file },
    styles: [urlOf(outputFor(styleEntry))],
    islands,
  };
}

function precompress(dir: string) {
  for (const file of readdirSync(dir)) {
    if (!/\.(js|css|txt)$/.test(file)) continue;
    const { br, gzip } = compressText(readFileSync(path.join(dir, file)));
    writeFileSync(path.join(dir, `${file}.br`), br);
    writeFileSync(path.join(dir, `${file}.gz`), gzip);
  }
}

export async function build(): Promise<AssetManifest> {
  const stamp = sourceStamp();
  rmSync(distDir, { recursive: true, force: true });
  mkdirSync(assetsDir, { recursive: true });

  const browserOptions: esbuild.BuildOptions = {
    absWorkingDir: root,
    outdir: 'dist/assets',
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    // Browsers from 2021 on: every one with ES modules, optional chaining and CSS nesting-free output.
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    minify: true,
    // No client source maps: they would triple what the server holds in memory for no visitor's benefit.
    sourcemap: false,
    legalComments: 'linked',
    metafile: true,
    // Root-relative URLs in CSS (url('/favicon.svg')) name files in public/, served as they are.
    external: ['/favicon.svg', '/images/*'],
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  };
  // The runtime and the islands, code-split so each page loads only its own islands' chunks.
  const client = await esbuild.build({
    ...browserOptions,
    entryPoints: ['client/islandHydrator.tsx', 'client/navigation.ts', styleEntry],
    splitting: true,
  });
  // The entry alone, unsplit: one file with no static import, which imports the runtime by URL after the first paint.
  const entry = await esbuild.build({ ...browserOptions, entryPoints: [clientEntry], splitting: false });
  const manifest = manifestFrom(client.metafile!, entry.metafile!);
  precompress(assetsDir);
  writeFileSync(path.join(distDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['server/main.ts'],
    outfile: 'dist/server/main.cjs',
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    jsx: 'automatic',
    logLevel: 'warning',
  });

  writeFileSync(stampFile, stamp);
  return manifest;
}

function isFresh(): boolean {
  return existsSync(stampFile) && readFileSync(stampFile, 'utf8') === sourceStamp();
}

if (require.main === module) {
  const ifStale = process.argv.includes('--if-stale');
  if (ifStale && isFresh()) {
    process.exit(0);
  }
  const started = performance.now();
  build().then(
    (manifest) => {
      const islands = Object.keys(manifest.islands).join(', ');
      console.log(`Built dist/ in ${(performance.now() - started).toFixed(0)} ms (islands: ${islands})`);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
