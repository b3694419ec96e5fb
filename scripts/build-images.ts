/**
 * The image pipeline: rasterises every source in art/ (SVG drawings, or a customer screenshot that takes a
 * slot's place) to AVIF, WebP and JPEG at each width the page uses, the link-preview image and the
 * favicons into public/, and writes shared/content/images.generated.ts.
 *
 *   npx tsx scripts/build-images.ts
 *
 * Text is set in art/fonts only. Reads art/ and never writes there. Exit codes: 0 done, 1 a source is
 * wrong (named) or an image is over its byte budget (the files are written all the same, to look at).
 */
import path from 'node:path';
import { projectRoot, publicDir } from '../server/lib/paths';
import { sampleReviews } from '../shared/content/sampleReviews';
import { budgets, sampleReviewFields, siteSlots } from './images/artwork';
import { buildImages, variantFile } from './images/buildImages';
import { SourceError } from './images/sources';
import { runCommand, type CommandMain } from './runCommand';

export const artDir = path.join(projectRoot, 'art');
export const dataFile = path.join(projectRoot, 'shared', 'content', 'images.generated.ts');

/** Builds the site's images from art/ and reports, as a command: out and err take the text. */
export async function buildSiteImages(out: (text: string) => void, err: (text: string) => void): Promise<number> {
  const started = Date.now();
  let result;
  try {
    result = await buildImages({ artDir, publicDir, dataFile, slots: siteSlots, fields: sampleReviewFields(sampleReviews) });
  } catch (error) {
    if (!(error instanceof SourceError)) throw error;
    err(`build-images: ${error.message}\n`);
    return 1;
  }
  const sizes = new Map(result.written.map(({ file, bytes }) => [file, bytes]));
  out('AVIF at display width (budget):\n');
  for (const slot of siteSlots) {
    const source = result.sources.get(slot.name)!;
    const bytes = sizes.get(variantFile(slot, slot.displayWidth, 'avif'));
    out(`  ${slot.name.padEnd(15)} ${String(slot.displayWidth).padStart(4)}w ${String(bytes).padStart(7)} B (${budgets[slot.kind].avif / 1000} KB)  art/${source.file}\n`);
  }
  for (const file of result.removed) out(`removed public/${file}: no source makes it any more\n`);
  for (const { file, bytes, budget } of result.overBudget) err(`build-images: public/${file} is ${bytes} B, over its ${budget} B budget\n`);
  out(`Wrote ${result.written.length} files and ${path.relative(projectRoot, dataFile)} in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
  return result.overBudget.length ? 1 : 0;
}

export const main: CommandMain = async (argv, _env, out, err) => {
  if (argv.length) {
    err('Usage: npx tsx scripts/build-images.ts   (no arguments: it builds every image from art/)\n');
    return 64;
  }
  return buildSiteImages(out, err);
};

if (require.main === module) runCommand(main);
