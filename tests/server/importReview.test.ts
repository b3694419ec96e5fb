import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { projectRoot } from '../../server/lib/paths';
import { siteSlots } from '../../scripts/images/artwork';
import { ImportError, importReview, main } from '../../scripts/import-review';
import { runImagePipeline } from '../support/imagePipelineProcess';
import { useTempDir } from '../support/tempDir';

const temp = useTempDir();
const art = () => path.join(temp.dir(), 'art');

/** A 40 x 20 phone photo, red on the left and blue on the right, stored sideways with EXIF orientation 6 (turn 90° clockwise to show). */
async function sidewaysPhoto(): Promise<string> {
  const file = path.join(temp.dir(), 'customer.jpg');
  const halves = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#ff0000' } })
    .composite([{ input: { create: { width: 20, height: 20, channels: 3, background: '#0000ff' } }, left: 20, top: 0 }])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
  writeFileSync(file, halves);
  return file;
}

async function run(argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, {}, (text) => (out += text), (text) => (err += text));
  return { code, out, err };
}

describe('importing a customer screenshot', () => {
  beforeEach(() => mkdirSync(art()));

  it('copies it to art/review-N.png turned upright, as PNG, with no metadata kept', async () => {
    const written = await importReview(3, await sidewaysPhoto(), art());
    expect(written).toBe(path.join(art(), 'review-3.png'));
    const metadata = await sharp(written).metadata();
    expect([metadata.format, metadata.width, metadata.height, metadata.orientation, metadata.exif]).toEqual(['png', 20, 40, undefined, undefined]);
    const { data } = await sharp(written).raw().toBuffer({ resolveWithObject: true });
    // Upright: the red half is now on top.
    expect([data[0]! > 200, data[2]! < 60]).toEqual([true, true]);
  });

  it('never replaces a screenshot already in the slot', async () => {
    writeFileSync(path.join(art(), 'review-2.jpg'), 'the customer screenshot already there');
    await expect(importReview(2, await sidewaysPhoto(), art())).rejects.toThrow(ImportError);
    await expect(importReview(2, await sidewaysPhoto(), art())).rejects.toThrow(/review-2 already shows a customer screenshot, .*review-2\.jpg: delete it first if you mean to replace it/);
    expect(readFileSync(path.join(art(), 'review-2.jpg'), 'utf8')).toBe('the customer screenshot already there');
  });

  it('refuses a file that is not a picture', async () => {
    const notes = path.join(temp.dir(), 'notes.txt');
    writeFileSync(notes, 'not a picture');
    await expect(importReview(4, notes, art())).rejects.toThrow(/notes\.txt cannot be read as a PNG, JPEG or WebP picture/);
    expect(existsSync(path.join(art(), 'review-4.png'))).toBe(false);
  });

  it('puts the screenshot in the sample card’s place when the pipeline runs', async () => {
    await importReview(3, await sidewaysPhoto(), art());
    for (const name of ['review-3.svg', 'og-image.svg', 'favicon.svg', 'apple-touch-icon.svg']) copyFileSync(path.join(projectRoot, 'art', name), path.join(art(), name));
    const slot = { ...siteSlots.find((candidate) => candidate.name === 'review-3')!, widths: [360] };
    const outcome = await runImagePipeline({ artDir: art(), publicDir: path.join(temp.dir(), 'public'), dataFile: path.join(temp.dir(), 'images.ts'), slots: [slot] });
    expect(outcome).toMatchObject({ ok: true, sources: { 'review-3': { file: 'review-3.png', kind: 'screenshot' } } });
    expect(await sharp(path.join(temp.dir(), 'public/images/review-3-360.avif')).metadata()).toMatchObject({ width: 360, height: 270 });
  });
});

describe('npx tsx scripts/import-review.ts', () => {
  it.each([[[]], [['3']], [['7', 'shot.png']], [['x', 'shot.png']], [['3', 'shot.png', 'extra']]])('prints its usage and exits 64 for %j', async (argv) => {
    expect(await run(argv)).toEqual({ code: 64, out: '', err: 'Usage: npx tsx scripts/import-review.ts <1-6> <screenshot.png|jpg|webp>\n' });
  });

  it('exits 64, naming it, for a file that does not exist', async () => {
    const missing = path.join(temp.dir(), 'missing.png');
    expect(await run(['3', missing])).toEqual({ code: 64, out: '', err: `import-review: ${missing} does not exist\n` });
  });
});
