import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import sharp from 'sharp';
import { projectRoot } from '../../server/lib/paths';
import { buildImages, type BuildOptions, type BuildResult } from '../../scripts/images/buildImages';
import { SourceError } from '../../scripts/images/sources';

/**
 * Runs the image pipeline (scripts/images/buildImages.ts) in a child process, as `npx tsx
 * scripts/build-images.ts` runs it. It cannot run inside a test: fontconfig reads FONTCONFIG_FILE from
 * the real environment, and jest hands each test file a copy of process.env that native code never sees.
 */
export type PipelineOutcome =
  | ({ ok: true } & Omit<BuildResult, 'sources'> & { sources: Record<string, { file: string; kind: string }> })
  | { ok: false; sourceError: boolean; message: string };

export interface RunOptions {
  /** Draw some text before the pipeline starts, so fontconfig is already set up with this machine's fonts. */
  drawTextFirst?: boolean;
}

export async function runImagePipeline(options: BuildOptions, run: RunOptions = {}): Promise<PipelineOutcome> {
  const tsx = path.join(projectRoot, 'node_modules/.bin/tsx');
  const child = spawn(tsx, [__filename, JSON.stringify({ options, run })], { cwd: projectRoot, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`the image pipeline's process exited ${code}: ${stderr}`);
  return JSON.parse(stdout) as PipelineOutcome;
}

async function childMain(): Promise<void> {
  const { options, run } = JSON.parse(process.argv[2]!) as { options: BuildOptions; run: RunOptions };
  if (run.drawTextFirst) {
    await sharp(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="60" height="30"><text y="20">Ag</text></svg>')).png().toBuffer();
  }
  let outcome: PipelineOutcome;
  try {
    const { sources, ...result } = await buildImages(options);
    outcome = { ok: true, ...result, sources: Object.fromEntries([...sources].map(([slot, source]) => [slot, { file: source.file, kind: source.kind }])) };
  } catch (error) {
    outcome = { ok: false, sourceError: error instanceof SourceError, message: (error as Error).message };
  }
  process.stdout.write(JSON.stringify(outcome));
}

if (require.main === module) void childMain();
