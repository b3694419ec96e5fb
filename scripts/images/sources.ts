/**
 * The sources in art/: which file each picture slot is drawn from, with the words from shared/content
 * filled in. A screenshot (PNG, JPEG or WebP) named after a slot takes the place of its SVG, so a real
 * customer screenshot is just a file put at art/review-N.png; nothing here ever writes into art/.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { encoders } from './artwork';

export const screenshotExtensions = ['.png', '.jpg', '.jpeg', '.webp'];
const sourceExtensions = ['.svg', ...screenshotExtensions];

export type Source =
  /** An SVG drawing, its {{fields}} filled in. */
  | { slot: string; file: string; kind: 'drawing'; svg: string }
  /** A raster picture (a customer screenshot), fitted onto the slot's shape when rasterised. */
  | { slot: string; file: string; kind: 'screenshot'; bytes: Buffer };

export class SourceError extends Error {}

const placeholder = /\{\{([\w.-]+)\}\}/g;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Fills an SVG's {{name}} placeholders from `fields`. Every placeholder must have a value and every value
 * a placeholder, so a quote line can neither go missing nor be dropped silently.
 */
export function fillTemplate(svg: string, fields: Record<string, string> = {}, file = 'the SVG'): string {
  const used = new Set<string>();
  const filled = svg.replace(placeholder, (_match, key: string) => {
    const value = fields[key];
    if (value === undefined) throw new SourceError(`${file} has {{${key}}}, and shared/content gives no ${key} for it`);
    used.add(key);
    return escapeXml(value);
  });
  const unused = Object.keys(fields).filter((key) => !used.has(key));
  if (unused.length) throw new SourceError(`${file} has no place for ${unused.map((key) => `{{${key}}}`).join(', ')} from shared/content`);
  return filled;
}

/** Width and height of an SVG's drawing, from its viewBox (or its width and height). */
export function svgSize(svg: string, file: string): { width: number; height: number } {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0];
  if (!root) throw new SourceError(`${file} is not an SVG: no <svg> element`);
  const viewBox = /\sviewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"/.exec(root);
  const width = Number(viewBox?.[1] ?? /\swidth="([\d.]+)(px)?"/.exec(root)?.[1]);
  const height = Number(viewBox?.[2] ?? /\sheight="([\d.]+)(px)?"/.exec(root)?.[1]);
  if (!(width > 0 && height > 0)) throw new SourceError(`${file} has no viewBox or pixel width and height`);
  return { width, height };
}

/** The SVG drawn at exactly width x height pixels: the root's width and height replaced, the viewBox kept. */
export function svgAtSize(svg: string, width: number, height: number): string {
  return svg.replace(/<svg\b[^>]*>/, (root) => root.replace(/\s(width|height)="[^"]*"/g, '').replace(/^<svg/, `<svg width="${width}" height="${height}"`));
}

/**
 * One source per slot name, read from artDir. Throws a SourceError naming the file for: a slot with no
 * source, a slot with two screenshots, a picture file that belongs to no slot, an SVG whose fields
 * do not match.
 */
export function findSources(artDir: string, slotNames: string[], fields: Record<string, Record<string, string>> = {}): Map<string, Source> {
  const files = readdirSync(artDir).filter((name) => sourceExtensions.includes(path.extname(name).toLowerCase()) && statSync(path.join(artDir, name)).isFile());
  const bySlot = new Map<string, string[]>(slotNames.map((name) => [name, []]));
  for (const name of files) {
    const candidates = bySlot.get(name.slice(0, -path.extname(name).length));
    if (!candidates) throw new SourceError(`art/${name} belongs to no picture: the names are ${slotNames.join(', ')}`);
    candidates.push(name);
  }
  const sources = new Map<string, Source>();
  for (const [slot, names] of bySlot) {
    const screenshots = names.filter((name) => screenshotExtensions.includes(path.extname(name).toLowerCase()));
    if (screenshots.length > 1) throw new SourceError(`${slot} has two screenshots, ${screenshots.map((name) => `art/${name}`).join(' and ')}: keep one`);
    const [screenshot] = screenshots;
    if (screenshot) {
      sources.set(slot, { slot, file: screenshot, kind: 'screenshot', bytes: readFileSync(path.join(artDir, screenshot)) });
      continue;
    }
    const drawing = names.find((name) => path.extname(name).toLowerCase() === '.svg');
    if (!drawing) throw new SourceError(`${slot} has no source: add art/${slot}.svg (or a screenshot, art/${slot}.png)`);
    const svg = fillTemplate(readFileSync(path.join(artDir, drawing), 'utf8'), fields[slot], `art/${drawing}`);
    sources.set(slot, { slot, file: drawing, kind: 'drawing', svg });
  }
  return sources;
}

/**
 * A digest of what a slot's pictures are made from: the filled SVG or the screenshot's bytes, and the
 * encoder settings. images.generated.ts records it, so a test can tell when art/ or the sample review
 * words changed without the pipeline being run.
 */
export function sourceDigest(source: Source): string {
  const hash = createHash('sha256').update(JSON.stringify(encoders));
  hash.update(source.kind === 'drawing' ? source.svg : source.bytes);
  return hash.digest('hex');
}
