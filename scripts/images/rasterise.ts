/**
 * Drawing sources into pixels with sharp (librsvg for SVG), with text set only in the fonts of art/fonts.
 */
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { projectRoot } from '../../server/lib/paths';
import { backgrounds, encoders, type Format } from './artwork';
import { SourceError, svgAtSize, svgSize, type Source } from './sources';

/** The fontconfig file that lists art/fonts and nothing else. */
export const projectFontsConfig = path.join(projectRoot, 'art', 'fonts', 'fonts.conf');

const probe = (family: string) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><text x="4" y="30" font-family="${family}" font-size="24" font-weight="700">Ag $1</text></svg>`,
  );

/**
 * Makes librsvg set text in art/fonts only, and proves it: with no other font visible, asking for a serif
 * must give DejaVu Sans. fontconfig reads FONTCONFIG_FILE once per process, when text is first drawn, so
 * this fails (rather than quietly using the machine's fonts) if something drew text before.
 */
export async function useProjectFonts(): Promise<void> {
  process.env.FONTCONFIG_FILE = projectFontsConfig;
  const [sans, serif] = await Promise.all(['DejaVu Sans', 'serif'].map((family) => sharp(probe(family)).png().toBuffer()));
  if (!sans!.equals(serif!)) {
    throw new Error(`Text would be drawn with this machine's fonts: fontconfig was set up before FONTCONFIG_FILE pointed at ${projectFontsConfig}`);
  }
}

/**
 * The widest line of ink a <text> element draws, in the SVG's own units: the element alone, black on
 * white, trimmed to its ink.
 */
async function inkWidth(textElement: string, size: { width: number; height: number }): Promise<number> {
  const content = textElement.replace(/^<text\b[^>]*>|<\/text>$/g, '');
  if (!content.trim()) return 0;
  const black = textElement.replace(/\s(fill|opacity)="[^"]*"/g, '').replace(/^<text/, '<text fill="#000000"');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}" viewBox="0 0 ${size.width} ${size.height}"><rect width="100%" height="100%" fill="#ffffff"/>${black}</svg>`;
  const { info } = await sharp(Buffer.from(svg)).trim({ background: '#ffffff', threshold: 10 }).toBuffer({ resolveWithObject: true });
  return info.width;
}

/**
 * Checks every <text data-max-width="N"> of a drawing (the lines filled from shared/content) draws no
 * wider than N, so a longer quote stops the build instead of running off its card.
 */
export async function checkTextFits(source: Source): Promise<void> {
  if (source.kind !== 'drawing') return;
  const size = svgSize(source.svg, source.file);
  for (const element of source.svg.match(/<text\b[^>]*\sdata-max-width="[\d.]+"[^>]*>[\s\S]*?<\/text>/g) ?? []) {
    const max = Number(/data-max-width="([\d.]+)"/.exec(element)![1]);
    const width = await inkWidth(element, size);
    if (width > max) {
      const words = element.replace(/^<text\b[^>]*>|<\/text>$/g, '');
      throw new SourceError(`In art/${source.file}, "${words}" is ${width} px wide and its place holds ${max} px: break it earlier`);
    }
  }
}

/** An SVG drawn at exactly width x height pixels (crisper than scaling a bitmap), transparency kept. */
export function drawSvg(source: Extract<Source, { kind: 'drawing' }>, width: number, height: number): Sharp {
  return sharp(Buffer.from(svgAtSize(source.svg, width, height))).resize(width, height);
}

/** The source drawn at width x height, opaque: an SVG at exactly that size, a screenshot fitted (never cropped) on the page's background. */
export function rasterise(source: Source, width: number, height: number, background: string = backgrounds.drawing): Sharp {
  if (source.kind === 'drawing') return drawSvg(source, width, height).flatten({ background });
  return sharp(source.bytes)
    .rotate()
    .resize(width, height, { fit: 'contain', background: backgrounds.screenshot })
    .flatten({ background: backgrounds.screenshot });
}

/** One picture in one format, with the encoder settings for its kind of source. */
export function encode(image: Sharp, format: Format, kind: Source['kind']): Promise<Buffer> {
  const settings = encoders[kind];
  const copy = image.clone();
  if (format === 'avif') return copy.avif(settings.avif).toBuffer();
  if (format === 'webp') return copy.webp(settings.webp).toBuffer();
  return copy.jpeg(settings.jpeg).toBuffer();
}

/**
 * favicon.ico holding PNGs (PNG-in-ICO works in every current browser); browsers still ask for
 * /favicon.ico by default.
 */
export function buildIco(pngs: { size: number; data: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * pngs.length);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(pngs.length, 4);
  let offset = header.length;
  pngs.forEach(({ size, data }, i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, entry);
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt8(0, entry + 2); // no palette
    header.writeUInt8(0, entry + 3);
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(data.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...pngs.map((png) => png.data)]);
}

/** An SVG as served: comments and the whitespace between tags removed (for the favicon, which has no text). */
export function minifySvg(svg: string): string {
  return `${svg.replace(/<!--[\s\S]*?-->/g, '').replace(/>\s+</g, '><').trim()}\n`;
}
