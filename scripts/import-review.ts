/**
 * Puts a real customer screenshot in place of one of the six sample review cards:
 *
 *   npx tsx scripts/import-review.ts <1-6> <screenshot.png|jpg|webp>
 *
 * A screenshot is a source like any other: this copies it to art/review-N.png (turned upright, as
 * lossless PNG, with its metadata such as a phone's location dropped), where it takes the sample
 * drawing's place, and then runs the image pipeline. Putting the file there by hand does the same.
 * It never replaces a screenshot already in the slot. Then describe the screenshot in that slide's alt
 * text in shared/content/home.ts.
 *
 * Exit codes: 0 done, 1 not imported (named why) or the pipeline failed, 64 bad arguments.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { buildSiteImages, artDir } from './build-images';
import { siteSlots } from './images/artwork';
import { screenshotExtensions } from './images/sources';
import { runCommand, type CommandMain } from './runCommand';

const usage = 'Usage: npx tsx scripts/import-review.ts <1-6> <screenshot.png|jpg|webp>\n';
const reviewSlots = siteSlots.filter((slot) => slot.kind === 'review').map((slot) => slot.name);

export class ImportError extends Error {}

/** Copies a screenshot into slot `review-<n>` of artDir as PNG; returns the file written. */
export async function importReview(n: number, file: string, folder: string = artDir): Promise<string> {
  const slot = `review-${n}`;
  const taken = screenshotExtensions.map((extension) => path.join(folder, `${slot}${extension}`)).find((candidate) => existsSync(candidate));
  if (taken) {
    throw new ImportError(`${slot} already shows a customer screenshot, ${path.relative(process.cwd(), taken)}: delete it first if you mean to replace it`);
  }
  const target = path.join(folder, `${slot}.png`);
  try {
    // No withMetadata(): sharp writes none, so no EXIF, location or camera data ends up in the repository.
    await sharp(file).rotate().png({ compressionLevel: 9 }).toFile(target);
  } catch (error) {
    throw new ImportError(`${file} cannot be read as a PNG, JPEG or WebP picture (${(error as Error).message})`);
  }
  return target;
}

export const main: CommandMain = async (argv, _env, out, err) => {
  const [slotArgument, file, ...rest] = argv;
  const n = Number(slotArgument);
  if (rest.length || !file || !reviewSlots.includes(`review-${n}`)) {
    err(usage);
    return 64;
  }
  if (!existsSync(file)) {
    err(`import-review: ${file} does not exist\n`);
    return 64;
  }
  let written;
  try {
    written = await importReview(n, file);
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    err(`import-review: ${error.message}\n`);
    return 1;
  }
  out(`Wrote ${path.relative(process.cwd(), written)}; it now takes the place of the sample card in review-${n}.\n`);
  const code = await buildSiteImages(out, err);
  if (code === 0) out(`Now describe the screenshot in the alt text of review-${n} in shared/content/home.ts, then commit art/, public/images and images.generated.ts.\n`);
  return code;
};

if (require.main === module) runCommand(main);
