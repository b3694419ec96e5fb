import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { projectRoot, publicDir } from '../../server/lib/paths';
import { budgets, formats, iconSpec, ogImageSpec, sampleReviewFields, siteSlots, type Format } from '../../scripts/images/artwork';
import { findSources, sourceDigest } from '../../scripts/images/sources';
import { generatedImages, imageSources, ogImage } from '../../shared/content/images.generated';
import { sampleReviews } from '../../shared/content/sampleReviews';
import { runImagePipeline } from '../support/imagePipelineProcess';
import { useTempDir } from '../support/tempDir';

/**
 * The committed pictures in public/, as the pipeline (scripts/build-images.ts) made them from art/: every
 * declared file at its size, in its format and within its budget, and nothing out of date.
 */
const artDir = path.join(projectRoot, 'art');
const temp = useTempDir();
const sharpFormat: Record<Format, string> = { avif: 'heif', webp: 'webp', jpeg: 'jpeg' };

describe('the committed images', () => {
  it('declare the slots the pipeline makes, at the widths the page uses', () => {
    expect(Object.keys(generatedImages)).toEqual(siteSlots.map((slot) => slot.name));
    for (const slot of siteSlots) {
      const image = generatedImages[slot.name as keyof typeof generatedImages];
      for (const format of formats) expect(image[format].map((variant) => variant.width)).toEqual(slot.widths);
    }
  });

  it.each(siteSlots.map((slot) => [slot.name, slot] as const))('%s: every variant exists at its declared width and height, in its format', async (name, slot) => {
    const image = generatedImages[name as keyof typeof generatedImages];
    expect(image.height * slot.aspect[0]).toBe(image.width * slot.aspect[1]);
    for (const format of formats) {
      for (const variant of image[format]) {
        const metadata = await sharp(path.join(publicDir, variant.src)).metadata();
        expect([variant.src, metadata.format, metadata.width, metadata.height]).toEqual([variant.src, sharpFormat[format], variant.width, Math.round((variant.width * image.height) / image.width)]);
        if (format === 'avif') expect(metadata.compression).toBe('av1');
      }
    }
  });

  it.each(siteSlots.map((slot) => [slot.name, slot] as const))('%s: the files a 1x screen downloads stay within the budget for its kind', (name, slot) => {
    const image = generatedImages[name as keyof typeof generatedImages];
    for (const format of formats) {
      const variant = image[format].find((candidate) => candidate.width === slot.displayWidth)!;
      const bytes = readFileSync(path.join(publicDir, variant.src)).length;
      expect({ file: variant.src, withinBudget: bytes <= budgets[slot.kind][format] }).toEqual({ file: variant.src, withinBudget: true });
    }
  });

  it('include the 1200 x 630 link-preview image as PNG and JPEG, within budget', async () => {
    expect(ogImage).toEqual({ src: '/images/og-image.png', width: 1200, height: 630, type: 'image/png' });
    for (const [file, format] of [['og-image.png', 'png'], ['og-image.jpg', 'jpeg']] as const) {
      const data = readFileSync(path.join(publicDir, 'images', file));
      expect(await sharp(data).metadata()).toMatchObject({ format, width: ogImageSpec.width, height: ogImageSpec.height });
      expect(data.length).toBeLessThanOrEqual(ogImageSpec.budget);
    }
  });

  it('include the favicons at their sizes: transparent corners on the favicon, an opaque touch icon, and an .ico of 16 and 32 px', async () => {
    for (const size of iconSpec.sizes) {
      const metadata = await sharp(path.join(publicDir, size >= 192 ? `icon-${size}.png` : `favicon-${size}.png`)).metadata();
      expect(metadata).toMatchObject({ format: 'png', width: size, height: size, hasAlpha: true });
    }
    expect(await sharp(path.join(publicDir, 'apple-touch-icon.png')).metadata()).toMatchObject({ format: 'png', width: 180, height: 180, hasAlpha: false });
    const ico = readFileSync(path.join(publicDir, 'favicon.ico'));
    expect([ico.readUInt16LE(2), ico.readUInt16LE(4), ico.readUInt8(6), ico.readUInt8(22)]).toEqual([1, 2, 16, 32]);
    expect(readFileSync(path.join(publicDir, 'favicon.svg'), 'utf8')).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="64" height="64" viewBox="0 0 64 64">.*<\/svg>\n$/);
  });

  it('leave nothing in public/images that the pipeline does not make', () => {
    const declared = Object.values(generatedImages).flatMap((image) => formats.flatMap((format) => image[format].map((variant) => variant.src)));
    const expected = [...declared, '/images/og-image.png', '/images/og-image.jpg'].sort();
    expect(readdirSync(path.join(publicDir, 'images')).map((name) => `/images/${name}`).sort()).toEqual(expected);
  });
});

describe('the committed images and their sources', () => {
  it('are up to date: every source in art/ (with the sample review words filled in) is the one they were made from', () => {
    const names = [...siteSlots.map((slot) => slot.name), ogImageSpec.name, iconSpec.favicon, iconSpec.touchIcon];
    const sources = findSources(artDir, names, sampleReviewFields(sampleReviews));
    const now = Object.fromEntries([...sources].map(([name, source]) => [name, { file: source.file, kind: source.kind, sha256: sourceDigest(source) }]));
    // If this fails, art/ or shared/content/sampleReviews.ts changed: run `npx tsx scripts/build-images.ts`.
    expect(now).toEqual(imageSources);
  });

  it('are exactly what the pipeline makes from them: a sample card, a cover, the link preview and the icons rebuilt here give the committed bytes', async () => {
    const art = path.join(temp.dir(), 'art');
    const out = path.join(temp.dir(), 'public');
    const rebuilt = siteSlots.filter((slot) => ['review-1', 'ebook-1'].includes(slot.name));
    mkdirSync(art);
    for (const name of ['review-1', 'ebook-1', ogImageSpec.name, iconSpec.favicon, iconSpec.touchIcon]) {
      const file = imageSources[name as keyof typeof imageSources].file;
      copyFileSync(path.join(artDir, file), path.join(art, file));
    }
    const result = await runImagePipeline({ artDir: art, publicDir: out, dataFile: path.join(temp.dir(), 'images.generated.ts'), slots: rebuilt, fields: { 'review-1': sampleReviewFields(sampleReviews)['review-1']! } });
    if (!result.ok) throw new Error(result.message);
    expect(result.written.length).toBe(3 * (4 + 2) + 2 + 7);
    for (const { file } of result.written) {
      expect({ file, same: readFileSync(path.join(out, file)).equals(readFileSync(path.join(publicDir, file))) }).toEqual({ file, same: true });
    }
  });
});
