import { readFileSync } from 'node:fs';
import path from 'node:path';

/** One built JavaScript file and the chunks it imports statically (to preload alongside it). */
export interface ScriptAsset {
  file: string;
  imports: string[];
}

/** What build.ts produced, as URL paths under /assets/: written from esbuild's metafile. */
export interface AssetManifest {
  /** The tiny entry on every page with islands or click counting: one self-contained file, so nothing waits on a second request. */
  entry: ScriptAsset;
  /** React and hydrateIsland, which the entry imports only when an island is about to hydrate. */
  runtime: ScriptAsset;
  /** The URLs of the runtime and of the navigation module, which the entry imports by URL (it is built apart from them). */
  runtimeModules: { hydrator: string; navigation: string };
  styles: string[];
  islands: Record<string, ScriptAsset>;
}

export const assetsUrlPrefix = '/assets/';

export class ManifestError extends Error {
  override name = 'ManifestError';
}

export function readManifest(distDir: string): AssetManifest {
  const file = path.join(distDir, 'manifest.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ManifestError(`The client build is missing (${file}): run "npm run build" first`);
  }
  try {
    return JSON.parse(text) as AssetManifest;
  } catch {
    throw new ManifestError(`The client build manifest ${file} is not valid JSON: run "npm run build" again`);
  }
}
