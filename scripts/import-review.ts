/**
 * Puts a real customer screenshot in place of one of the six sample review images:
 *   npx tsx scripts/import-review.ts <1-6> <screenshot.png|jpg|webp>
 * The screenshot is fitted (never cropped) onto the 4:3 card the carousel shows, on the page's
 * light background, and written at every width and format the page offers, under the same names.
 * Then update that slide's alt text (and the reviews intro) in shared/content/home.ts.
 * Note: scripts/make-images.ts redraws all artwork, samples included; run it only before importing.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { generatedImages } from '../shared/content/images.generated';

async function main() {
  const [slot, source] = process.argv.slice(2);
  const name = `review-${slot}` as const;
  if (!/^[1-6]$/.test(slot ?? '') || !source || !existsSync(source)) {
    console.error('usage: npx tsx scripts/import-review.ts <1-6> <screenshot file>');
    process.exit(1);
  }
  const image = generatedImages[name as keyof typeof generatedImages];
  const publicDir = path.join(__dirname, '..', 'public');
  for (const [format, variants] of [['avif', image.avif], ['webp', image.webp], ['jpeg', image.jpeg]] as const) {
    for (const variant of variants) {
      const height = Math.round((variant.width * image.height) / image.width);
      const fitted = sharp(source).resize(variant.width, height, { fit: 'contain', background: '#f6f8fb' }).flatten({ background: '#f6f8fb' });
      const encoded =
        format === 'avif'
          ? fitted.avif({ quality: 55, effort: 4 })
          : format === 'webp'
            ? fitted.webp({ quality: 78 })
            : fitted.jpeg({ quality: 80, mozjpeg: true });
      const file = path.join(publicDir, variant.src);
      writeFileSync(file, await encoded.toBuffer());
      console.log(`wrote ${path.relative(process.cwd(), file)}`);
    }
  }
  console.log(`Now describe the screenshot in the alt text of ${name} in shared/content/home.ts.`);
}

void main();
