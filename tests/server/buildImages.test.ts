import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { projectRoot } from '../../server/lib/paths';
import type { ImageSlot } from '../../scripts/images/artwork';
import { buildImages, type BuildOptions } from '../../scripts/images/buildImages';
import { fillTemplate, findSources, svgAtSize } from '../../scripts/images/sources';
import { runImagePipeline, type PipelineOutcome } from '../support/imagePipelineProcess';
import { useTempDir } from '../support/tempDir';

/** The image pipeline on a small source folder of its own: one card with a line of words, one cover. */
const temp = useTempDir();
const slots: ImageSlot[] = [
  { name: 'card', kind: 'review', widths: [80, 160], aspect: [4, 3], displayWidth: 80 },
  { name: 'cover', kind: 'ebook', widths: [30, 60], aspect: [3, 4], displayWidth: 30 },
];
const svg = (width: number, height: number, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">\n${body}\n</svg>\n`;
const card = (family = 'DejaVu Sans') =>
  svg(400, 300, `  <rect width="400" height="300" fill="#1d4e89"/>\n  <text data-max-width="360" x="20" y="160" font-family="${family}" font-size="40" fill="#ffffff">{{quote.1}}</text>`);
const cover = svg(300, 400, '  <rect width="300" height="400" fill="#f5a524"/>\n  <text x="30" y="200" font-family="DejaVu Sans" font-size="30" font-weight="700">Cover</text>');

const dir = (name: string) => path.join(temp.dir(), name);
const options = (overrides: Partial<BuildOptions> = {}): BuildOptions => ({
  artDir: dir('art'),
  publicDir: dir('public'),
  dataFile: dir('images.generated.ts'),
  slots,
  fields: { card: { 'quote.1': 'Fits & fine' } },
  ...overrides,
});

/** art/ with the fixture card and cover, and the site's own link-preview and icon sources. */
function makeArt(files: Record<string, string | Buffer> = {}): void {
  mkdirSync(dir('art'));
  for (const name of ['og-image.svg', 'favicon.svg', 'apple-touch-icon.svg']) copyFileSync(path.join(projectRoot, 'art', name), path.join(dir('art'), name));
  for (const [name, content] of Object.entries({ 'card.svg': card(), 'cover.svg': cover, ...files })) writeFileSync(path.join(dir('art'), name), content);
}

async function build(overrides: Partial<BuildOptions> = {}): Promise<Extract<PipelineOutcome, { ok: true }>> {
  const outcome = await runImagePipeline(options(overrides));
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome;
}

/** Every file below a folder with a digest of its bytes. */
function snapshot(folder: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name))
      .map((file) => [path.relative(folder, file), createHash('sha256').update(readFileSync(file)).digest('hex')]),
  );
}

const variants = ['card-80', 'card-160', 'cover-30', 'cover-60'].flatMap((base) => ['avif', 'webp', 'jpg'].map((extension) => `images/${base}.${extension}`));
const icons = ['favicon-16.png', 'favicon-32.png', 'icon-192.png', 'icon-512.png', 'favicon.ico', 'apple-touch-icon.png', 'favicon.svg'];

describe('the image pipeline', () => {
  it('writes every slot at each width in AVIF, WebP and JPEG, the link preview, the icons, and a data file naming them', async () => {
    makeArt();
    const outcome = await build();
    expect(outcome.written.map((written) => written.file).sort()).toEqual([...variants, 'images/og-image.png', 'images/og-image.jpg', ...icons].sort());
    const format = { avif: 'heif', webp: 'webp', jpg: 'jpeg' };
    for (const file of variants) {
      const [, name, width, extension] = /images\/(\w+)-(\d+)\.(\w+)$/.exec(file)!;
      const height = name === 'card' ? (Number(width) * 3) / 4 : (Number(width) * 4) / 3;
      expect(await sharp(path.join(dir('public'), file)).metadata()).toMatchObject({ format: format[extension as keyof typeof format], width: Number(width), height });
    }
    const data = readFileSync(dir('images.generated.ts'), 'utf8');
    expect(data).toContain("  card: {\n    width: 160,\n    height: 120,\n    avif: [\n      { width: 80, src: '/images/card-80.avif' },");
    expect(data).toMatch(/ {2}card: \{ file: 'card\.svg', kind: 'drawing', sha256: '[0-9a-f]{64}' \},/);
    expect(outcome.overBudget).toEqual([]);
  });

  it('gives the same bytes every run', async () => {
    makeArt();
    await build();
    const first = { ...snapshot(dir('public')), data: readFileSync(dir('images.generated.ts'), 'utf8') };
    await build({ publicDir: dir('again'), dataFile: dir('again.ts') });
    expect({ ...snapshot(dir('again')), data: readFileSync(dir('again.ts'), 'utf8') }).toEqual(first);
  });

  it('sets text in the project’s font whatever family an SVG names, so no machine’s fonts can change a picture', async () => {
    makeArt();
    await build();
    makeArtAgain({ 'card.svg': card('Liberation Serif, serif') });
    await build({ artDir: dir('art2'), publicDir: dir('serif') });
    expect(snapshot(dir('serif'))['images/card-160.avif']).toBe(snapshot(dir('public'))['images/card-160.avif']);
  });

  it('refuses to draw text once something in the process has set fontconfig up with this machine’s fonts', async () => {
    makeArt();
    const outcome = await runImagePipeline(options(), { drawTextFirst: true });
    expect(outcome).toMatchObject({ ok: false, message: expect.stringMatching(/^Text would be drawn with this machine's fonts/) });
  });

  it('fills the words from content into the drawing: other words, other pictures and another digest', async () => {
    makeArt();
    await build();
    await build({ publicDir: dir('other'), dataFile: dir('other.ts'), fields: { card: { 'quote.1': 'Other words' } } });
    expect(snapshot(dir('other'))['images/card-160.jpg']).not.toBe(snapshot(dir('public'))['images/card-160.jpg']);
    expect(snapshot(dir('other'))['images/cover-60.jpg']).toBe(snapshot(dir('public'))['images/cover-60.jpg']);
    const digest = (file: string) => /card: \{ file: 'card\.svg', kind: 'drawing', sha256: '(\w+)'/.exec(readFileSync(file, 'utf8'))![1];
    expect(digest(dir('other.ts'))).not.toBe(digest(dir('images.generated.ts')));
  });

  it('lets a screenshot at a slot’s source path take the place of its drawing, fitted onto the slot uncropped', async () => {
    const screenshot = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#ff0000' } }).png().toBuffer();
    makeArt({ 'card.png': screenshot });
    const outcome = await build();
    expect(outcome.sources.card).toEqual({ file: 'card.png', kind: 'screenshot' });
    expect(readFileSync(dir('images.generated.ts'), 'utf8')).toMatch(/ {2}card: \{ file: 'card\.png', kind: 'screenshot', sha256: '[0-9a-f]{64}' \},/);
    const { data, info } = await sharp(path.join(dir('public'), 'images/card-160.webp')).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    expect([info.width, info.height]).toEqual([160, 120]);
    // 300 x 100 fitted onto 160 x 120: red across the middle, the page's background above and below.
    expect(pixel(80, 60).map((channel) => Math.round(channel / 32))).toEqual([8, 0, 0]);
    expect(pixel(80, 4).map((channel) => Math.round(channel / 32))).toEqual([8, 8, 8]);
  });

  it('never writes into the source folder, and refuses an output inside it', async () => {
    makeArt({ 'card.png': await sharp({ create: { width: 40, height: 30, channels: 3, background: '#00ff00' } }).png().toBuffer() });
    const before = snapshot(dir('art'));
    await build();
    expect(snapshot(dir('art'))).toEqual(before);
    await expect(buildImages(options({ publicDir: path.join(dir('art'), 'public') }))).rejects.toThrow(/never writes into/);
    await expect(buildImages(options({ dataFile: path.join(dir('art'), 'images.generated.ts') }))).rejects.toThrow(/never writes into/);
  });

  it('removes pictures from its output folder that no source makes any more', async () => {
    makeArt();
    mkdirSync(dir('public/images'), { recursive: true });
    writeFileSync(dir('public/images/card-999.avif'), 'stale');
    const outcome = await build();
    expect(outcome.removed).toEqual(['images/card-999.avif']);
    expect(existsSync(dir('public/images/card-999.avif'))).toBe(false);
  });

  it('reports a picture over its byte budget', async () => {
    const noise = await sharp(Buffer.from(Array.from({ length: 300 * 400 * 3 }, (_, i) => (i * 7919) % 251)), { raw: { width: 300, height: 400, channels: 3 } }).png().toBuffer();
    makeArt({ 'cover.png': noise });
    const outcome = await build({ slots: [slots[0]!, { name: 'cover', kind: 'ebook', widths: [300], aspect: [3, 4], displayWidth: 300 }] });
    expect(outcome.overBudget).toContainEqual({ file: 'images/cover-300.jpg', bytes: expect.any(Number), budget: 20_000 });
  });

  it.each<[string, Record<string, string>, BuildOptions['fields'], RegExp]>([
    ['a line of words too wide for its place', { 'card.svg': card() }, { card: { 'quote.1': 'Far too many words for this card' } }, /^In art\/card\.svg, "Far too many words for this card" is \d+ px wide and its place holds 360 px: break it earlier$/],
    ['an SVG of another shape than its slot', { 'cover.svg': svg(300, 300, '<rect width="300" height="300"/>') }, undefined, /^art\/cover\.svg is 300 x 300, but cover is 3:4$/],
  ])('stops, naming the source, for %s', async (_case, files, fields, message) => {
    makeArt(files);
    const outcome = await runImagePipeline(options(fields ? { fields } : {}));
    expect(outcome).toMatchObject({ ok: false, sourceError: true, message: expect.stringMatching(message) });
  });
});

function makeArtAgain(files: Record<string, string>): void {
  const again = dir('art2');
  mkdirSync(again);
  for (const name of readdirSync(dir('art'))) copyFileSync(path.join(dir('art'), name), path.join(again, name));
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(again, name), content);
}

describe('the sources in art/', () => {
  const names = ['card', 'cover'];
  const fields = { card: { 'quote.1': 'Fits' } };

  it.each<[string, Record<string, string | undefined>, RegExp]>([
    ['a picture named after no slot', { 'crad.svg': cover }, /^art\/crad\.svg belongs to no picture: the names are card, cover$/],
    ['two screenshots for one slot', { 'card.png': 'x', 'card.jpg': 'x' }, /^card has two screenshots, art\/card\.jpg and art\/card\.png: keep one$/],
    ['a slot with no source', { 'cover.svg': undefined }, /^cover has no source: add art\/cover\.svg \(or a screenshot, art\/cover\.png\)$/],
  ])('are refused with the file named for %s', (_case, files, message) => {
    mkdirSync(dir('art'));
    for (const [name, content] of Object.entries({ 'card.svg': card(), 'cover.svg': cover, ...files })) if (content !== undefined) writeFileSync(path.join(dir('art'), name), content);
    expect(() => findSources(dir('art'), names, fields)).toThrow(message);
  });

  it('ignore what is not a picture, such as art/fonts and a README', () => {
    mkdirSync(path.join(dir('art'), 'fonts'), { recursive: true });
    for (const [name, content] of Object.entries({ 'card.svg': card(), 'cover.svg': cover, 'README.md': '# Art' })) writeFileSync(path.join(dir('art'), name), content);
    expect([...findSources(dir('art'), names, fields).keys()]).toEqual(names);
  });
});

describe('filling a drawing’s words', () => {
  it('puts each field in its {{place}}, escaped for XML', () => {
    expect(fillTemplate('<text>{{name}} · {{quote.1}}</text>', { name: 'Ann & <Bo>', 'quote.1': '"Yes"' })).toBe('<text>Ann &amp; &lt;Bo&gt; · &quot;Yes&quot;</text>');
  });

  it('refuses a place content does not fill, and words content gives that have no place', () => {
    expect(() => fillTemplate('<text>{{quote.3}}</text>', {}, 'art/review-2.svg')).toThrow('art/review-2.svg has {{quote.3}}, and shared/content gives no quote.3 for it');
    expect(() => fillTemplate('<text>{{name}}</text>', { name: 'A', 'quote.5': 'B' }, 'art/review-1.svg')).toThrow('art/review-1.svg has no place for {{quote.5}} from shared/content');
  });

  it('draws an SVG at any pixel size by setting its root width and height and keeping its viewBox', () => {
    expect(svgAtSize(card(), 160, 120)).toMatch(/^<svg width="160" height="120" xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 400 300">/);
  });
});
