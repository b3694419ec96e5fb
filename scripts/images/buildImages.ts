/**
 * The image pipeline: every source in art/ rasterised to AVIF, WebP and JPEG at each width the page uses
 * (plus the link-preview image and the favicons), and shared/content/images.generated.ts describing them.
 * It reads art/ and never writes there; the output is a pure function of the sources, the sample review
 * words and the encoder settings (no dates, no metadata), so running it twice gives the same bytes.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { backgrounds, budgets, encoders, extensions, formats, iconSpec, ogImageSpec, type Format, type ImageSlot } from './artwork';
import { buildIco, checkTextFits, drawSvg, encode, minifySvg, rasterise, useProjectFonts } from './rasterise';
import { findSources, SourceError, sourceDigest, svgSize, type Source } from './sources';

export interface BuildOptions {
  artDir: string;
  /** Written: publicDir/images/* (this folder holds only the pipeline's output), favicons in publicDir. */
  publicDir: string;
  dataFile: string;
  slots: ImageSlot[];
  /** Words to fill into each slot's SVG, by slot name (the sample reviews). */
  fields?: Record<string, Record<string, string>>;
}

export interface OverBudget {
  file: string;
  bytes: number;
  budget: number;
}

export interface BuildResult {
  /** Every file written, relative to publicDir (the data file not included), with its size. */
  written: { file: string; bytes: number }[];
  /** Files in publicDir/images that no source makes any more, deleted. */
  removed: string[];
  overBudget: OverBudget[];
  sources: Map<string, Source>;
}

const heightAt = (slot: ImageSlot, width: number) => Math.round((width * slot.aspect[1]) / slot.aspect[0]);
export const variantFile = (slot: ImageSlot, width: number, format: Format) => `images/${slot.name}-${width}.${extensions[format]}`;

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(path.resolve(parent), path.resolve(child));
  return !relative.startsWith('..') && !path.isAbsolute(relative);
}

type Drawing = Extract<Source, { kind: 'drawing' }>;

function drawingOnly(source: Source | undefined, slot: string): Drawing {
  if (source?.kind !== 'drawing') throw new SourceError(`${slot} must be drawn as art/${slot}.svg`);
  return source;
}

function checkShape(slot: ImageSlot, source: Source): void {
  if (source.kind !== 'drawing') return;
  const { width, height } = svgSize(source.svg, source.file);
  if (Math.abs(width * slot.aspect[1] - height * slot.aspect[0]) > 0.5) {
    throw new SourceError(`art/${source.file} is ${width} x ${height}, but ${slot.name} is ${slot.aspect[0]}:${slot.aspect[1]}`);
  }
}

export async function buildImages(options: BuildOptions): Promise<BuildResult> {
  const { artDir, publicDir, dataFile, slots } = options;
  for (const output of [publicDir, dataFile]) {
    if (isInside(output, artDir)) throw new Error(`The pipeline never writes into ${artDir}, so ${output} cannot be an output`);
  }
  await useProjectFonts();
  const names = [...slots.map((slot) => slot.name), ogImageSpec.name, iconSpec.favicon, iconSpec.touchIcon];
  const sources = findSources(artDir, names, options.fields);
  for (const slot of slots) checkShape(slot, sources.get(slot.name)!);
  for (const source of sources.values()) await checkTextFits(source);

  const written = new Map<string, Buffer>();
  const put = (file: string, data: Buffer) => written.set(file, data);

  const responsive = slots.flatMap((slot) =>
    slot.widths.map(async (width) => {
      const source = sources.get(slot.name)!;
      const image = rasterise(source, width, heightAt(slot, width));
      await Promise.all(formats.map(async (format) => put(variantFile(slot, width, format), await encode(image, format, source.kind))));
    }),
  );

  const og = drawingOnly(sources.get(ogImageSpec.name), ogImageSpec.name);
  const ogImage = rasterise(og, ogImageSpec.width, ogImageSpec.height, backgrounds.dark);
  const ogFiles = [
    ogImage.clone().png(encoders.og.png).toBuffer().then((data: Buffer) => put(`images/${ogImageSpec.name}.png`, data)),
    ogImage.clone().jpeg(encoders.og.jpeg).toBuffer().then((data: Buffer) => put(`images/${ogImageSpec.name}.jpg`, data)),
  ];

  const icons = renderIcons(drawingOnly(sources.get(iconSpec.favicon), iconSpec.favicon), drawingOnly(sources.get(iconSpec.touchIcon), iconSpec.touchIcon), put);

  await Promise.all([...responsive, ...ogFiles, icons]);

  await mkdir(path.join(publicDir, 'images'), { recursive: true });
  const files = [...written.keys()].sort();
  for (const file of files) await writeFile(path.join(publicDir, file), written.get(file)!);
  await mkdir(path.dirname(dataFile), { recursive: true });
  await writeFile(dataFile, dataFileText(slots, sources));

  const kept = new Set(files);
  const removed = (await readdir(path.join(publicDir, 'images'))).map((name) => `images/${name}`).filter((file) => !kept.has(file));
  for (const file of removed) await rm(path.join(publicDir, file));

  return { written: files.map((file) => ({ file, bytes: written.get(file)!.length })), removed, overBudget: overBudget(slots, written), sources };
}

/** The favicons keep their transparent rounded corners; the touch icon is opaque (iOS fills transparency with black). */
async function renderIcons(favicon: Drawing, touchIcon: Drawing, put: (file: string, data: Buffer) => void): Promise<void> {
  const pngs = await Promise.all(iconSpec.sizes.map(async (size) => ({ size, data: await drawSvg(favicon, size, size).png(encoders.icon.png).toBuffer() })));
  for (const { size, data } of pngs) put(size >= 192 ? `icon-${size}.png` : `favicon-${size}.png`, data);
  put('favicon.ico', buildIco(pngs.filter(({ size }) => (iconSpec.icoSizes as readonly number[]).includes(size))));
  const touch = rasterise(touchIcon, iconSpec.touchSize, iconSpec.touchSize, backgrounds.dark);
  put(`${iconSpec.touchIcon}.png`, await touch.png(encoders.icon.png).toBuffer());
  put('favicon.svg', Buffer.from(minifySvg(favicon.svg)));
}

/** The files a 1x screen downloads (each slot at its display width) and the link-preview image, over their budgets. */
function overBudget(slots: ImageSlot[], written: Map<string, Buffer>): OverBudget[] {
  const checks = [
    ...slots.flatMap((slot) => formats.map((format) => ({ file: variantFile(slot, slot.displayWidth, format), budget: budgets[slot.kind][format] }))),
    ...['png', 'jpg'].map((extension) => ({ file: `images/${ogImageSpec.name}.${extension}`, budget: ogImageSpec.budget })),
  ];
  return checks.map(({ file, budget }) => ({ file, budget, bytes: written.get(file)?.length ?? 0 })).filter(({ bytes, budget }) => bytes > budget);
}

/** The typed description of every image, as shared/content/images.generated.ts. */
export function dataFileText(slots: ImageSlot[], sources: Map<string, Source>): string {
  const variants = (slot: ImageSlot, format: Format) => slot.widths.map((width) => `      { width: ${width}, src: '/${variantFile(slot, width, format)}' },`).join('\n');
  const key = (name: string) => (/^[a-z]+$/i.test(name) ? name : `'${name}'`);
  const entries = slots
    .map((slot) => {
      const width = Math.max(...slot.widths);
      const lists = formats.map((format) => `    ${format}: [\n${variants(slot, format)}\n    ],`);
      return [`  ${key(slot.name)}: {`, `    width: ${width},`, `    height: ${heightAt(slot, width)},`, ...lists, '  },'].join('\n');
    })
    .join('\n');
  const digests = [...sources.values()]
    .map((source) => `  ${key(source.slot)}: { file: '${source.file}', kind: '${source.kind}', sha256: '${sourceDigest(source)}' },`)
    .join('\n');
  return `// Generated by scripts/build-images.ts from the sources in art/. Do not edit by hand:
// edit art/ (or the sample review words in shared/content/sampleReviews.ts) and run \`npx tsx scripts/build-images.ts\`.

export interface ImageVariant {
  width: number;
  /** URL path, e.g. "/images/hero-560.avif". */
  src: string;
}

export interface GeneratedImage {
  /** Intrinsic size of the largest variant (for width/height attributes and the aspect ratio). */
  width: number;
  height: number;
  /** Variants in ascending width. */
  avif: ImageVariant[];
  webp: ImageVariant[];
  jpeg: ImageVariant[];
}

export const generatedImages = {
${entries}
} as const satisfies Record<string, GeneratedImage>;

export type GeneratedImageName = keyof typeof generatedImages;

export const ogImage = { src: '/images/${ogImageSpec.name}.png', width: ${ogImageSpec.width}, height: ${ogImageSpec.height}, type: 'image/png' } as const;

/**
 * The file in art/ each picture was made from (a drawing, or a screenshot that took its slot's place), and
 * a digest of it with its words filled in, so a test can tell when a source changed without a rebuild.
 */
export const imageSources = {
${digests}
} as const;
`;
}
