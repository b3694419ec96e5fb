/**
 * Draws every piece of site artwork as SVG in code and rasterises it with sharp.
 *
 *   npx tsx scripts/make-images.ts
 *
 * Why in code: the artwork is original (no photos, no stock, no copied
 * illustrations), it stays in the brand palette, and anyone can change a colour
 * or a caption and regenerate every size and format with one command
 * (about 25 s on a 2-core machine; AVIF encoding is most of it).
 *
 * Output:
 *   public/images/<name>-<width>.<avif|webp|jpg>   responsive variants
 *   public/images/og-image.png / .jpg              link-preview image (1200x630)
 *   public/favicon.svg, favicon.ico, favicon-16.png, favicon-32.png,
 *   public/apple-touch-icon.png, icon-192.png, icon-512.png
 *   shared/content/images.generated.ts             typed list of the variants
 *
 * The script is deterministic: no randomness, no dates, no metadata, so
 * running it again produces the same files.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PUBLIC_DIR = path.join(ROOT, 'public');
const IMAGES_DIR = path.join(PUBLIC_DIR, 'images');
const DATA_FILE = path.join(ROOT, 'shared', 'content', 'images.generated.ts');

/* -------------------------------------------------------------------------- */
/* Palette and font                                                            */
/* -------------------------------------------------------------------------- */

/** The site's palette: every image is drawn from these so it matches the CSS. */
const PALETTE = {
  navy: '#0b2545', // text and brand
  deepBlue: '#13315c',
  blue: '#1d4e89',
  sky: '#e8f1fb', // light backgrounds
  amber: '#f5a524', // accent / call to action
  green: '#1f7a4d', // success
  offWhite: '#fafbfc',
  slate: '#475569',
} as const;

/**
 * A few supporting tints. They are lighter or darker steps of the palette (plus
 * neutral greys for tires and glass) so the illustrations have depth without
 * introducing new brand colours.
 */
const TINT = {
  white: '#ffffff',
  skyDeep: '#d6e6f7', // decorative shapes on sky backgrounds
  skyLine: '#c3d7ee',
  glass: '#cfe2f6', // car windows
  amberDark: '#c98410',
  greenLight: '#dcefe4',
  greyLight: '#e2e8f0',
  greyMid: '#cbd5e1',
  greyDark: '#94a3b8',
  tire: '#1c2533',
  red: '#d64545', // tail lights only
  headlight: '#fff4cf',
} as const;

/** DejaVu Sans is installed on the build machine; Arial is the usual fallback. */
const FONT = 'DejaVu Sans, Arial, sans-serif';

/* -------------------------------------------------------------------------- */
/* Text measuring and wrapping                                                 */
/* -------------------------------------------------------------------------- */

/*
 * Advance widths of DejaVu Sans (Book and Bold) for ASCII 32..126, in 1/1000 em,
 * read from the font's hmtx table. With them we can wrap and centre text
 * without a layout engine, so nothing overflows a cover or a card.
 */
// prettier-ignore
const WIDTH_BOOK = [318,401,460,838,636,950,780,275,390,390,500,838,318,361,318,337,636,636,636,636,636,636,636,636,636,636,337,337,838,838,838,531,1000,684,686,698,770,632,575,775,752,295,295,656,557,863,748,787,603,787,695,635,611,732,684,989,685,611,685,390,337,390,838,500,500,613,635,550,635,615,352,635,634,278,278,579,278,974,634,612,635,635,411,521,392,634,592,818,592,592,525,636,337,636,838];
// prettier-ignore
const WIDTH_BOLD = [348,456,521,838,696,1002,872,306,457,457,523,838,380,415,380,365,696,696,696,696,696,696,696,696,696,696,400,400,838,838,838,580,1000,774,762,734,830,683,683,821,837,372,372,775,637,995,837,850,733,850,770,720,682,812,774,1103,771,724,725,457,365,457,838,500,500,675,716,593,716,678,435,716,712,343,343,665,343,1042,712,687,716,716,493,595,478,712,652,924,645,652,582,712,365,712,838];
/** The few non-ASCII characters we use. */
const WIDTH_EXTRA: Record<string, [book: number, bold: number]> = {
  '—': [1000, 1000],
  '–': [500, 500],
  '·': [318, 380],
  '’': [318, 380],
  '“': [518, 657],
  '”': [518, 657],
};

function textWidth(text: string, size: number, bold = false, letterSpacing = 0): number {
  let units = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 32;
    const table = bold ? WIDTH_BOLD : WIDTH_BOOK;
    const extra = WIDTH_EXTRA[ch];
    units += extra ? extra[bold ? 1 : 0] : (table[code - 32] ?? 1000);
  }
  return (units / 1000) * size + letterSpacing * [...text].length;
}

/** Greedy word wrap: as many words per line as fit in maxWidth. */
function wrapText(text: string, maxWidth: number, size: number, bold = false): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && textWidth(candidate, size, bold) > maxWidth) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Wraps into the same number of lines as the greedy wrap, but with lines of
 * similar length (no single orphaned word on the last line).
 */
function balancedWrap(text: string, maxWidth: number, size: number, bold = false): string[] {
  const greedy = wrapText(text, maxWidth, size, bold);
  if (greedy.length < 2) return greedy;
  const fits = (w: number) => {
    const rows = wrapText(text, w, size, bold);
    return rows.length <= greedy.length && rows.every((r) => textWidth(r, size, bold) <= w);
  };
  // Binary search for the narrowest column that still needs no extra line.
  let lo = 0;
  let hi = maxWidth;
  for (let i = 0; i < 24; i++) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) hi = mid;
    else lo = mid;
  }
  return wrapText(text, hi, size, bold);
}

/**
 * The largest font size (from the list, largest first) at which the text wraps
 * into at most maxLines lines that all fit maxWidth, so long titles shrink a
 * little instead of overflowing.
 */
function fitText(
  text: string,
  maxWidth: number,
  maxLines: number,
  sizes: readonly number[],
  bold = true,
): { size: number; lines: string[] } {
  for (const size of sizes) {
    const lines = balancedWrap(text, maxWidth, size, bold);
    if (lines.length <= maxLines && lines.every((l) => textWidth(l, size, bold) <= maxWidth)) {
      return { size, lines };
    }
  }
  const size = sizes[sizes.length - 1] ?? 16;
  throw new Error(`Text does not fit even at ${size}px: "${text}"`);
}

/* -------------------------------------------------------------------------- */
/* SVG helpers                                                                 */
/* -------------------------------------------------------------------------- */

/** One decimal place keeps the SVG short and the output stable. */
function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A complete SVG document drawn in a fixed viewBox and rendered at width x height pixels. */
function svgDoc(viewW: number, viewH: number, body: string, width = viewW, height = viewH): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${viewW} ${viewH}">${body}</svg>`
  );
}

interface TextOptions {
  size: number;
  fill: string;
  bold?: boolean;
  anchor?: 'start' | 'middle' | 'end';
  letterSpacing?: number;
  opacity?: number;
  transform?: string;
}

function text(x: number, y: number, content: string, o: TextOptions): string {
  const attrs = [
    `x="${x}"`,
    `y="${y}"`,
    `font-family="${FONT}"`,
    `font-size="${o.size}"`,
    `fill="${o.fill}"`,
    o.bold ? 'font-weight="700"' : '',
    o.anchor && o.anchor !== 'start' ? `text-anchor="${o.anchor}"` : '',
    o.letterSpacing ? `letter-spacing="${o.letterSpacing}"` : '',
    o.opacity !== undefined ? `opacity="${o.opacity}"` : '',
    o.transform ? `transform="${o.transform}"` : '',
  ].filter(Boolean);
  return `<text ${attrs.join(' ')}>${esc(content)}</text>`;
}

/** Several lines of text, the first baseline at y. */
function lines(x: number, y: number, rows: string[], lineHeight: number, o: TextOptions): string {
  return rows.map((row, i) => text(x, y + i * lineHeight, row, o)).join('');
}

function rect(x: number, y: number, w: number, h: number, fill: string, rx = 0, extra = ''): string {
  return `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${rx}" fill="${fill}" ${extra}/>`;
}

function circle(cx: number, cy: number, r: number, fill: string, extra = ''): string {
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}" ${extra}/>`;
}

function group(transform: string, body: string): string {
  return `<g transform="${transform}">${body}</g>`;
}

/** A four-pointed sparkle, the "deal found" accent used around the artwork. */
function sparkle(cx: number, cy: number, r: number, fill: string): string {
  const k = r * 0.28;
  return (
    `<path d="M ${cx} ${cy - r} Q ${cx + k} ${cy - k} ${cx + r} ${cy} Q ${cx + k} ${cy + k} ${cx} ${cy + r} ` +
    `Q ${cx - k} ${cy + k} ${cx - r} ${cy} Q ${cx - k} ${cy - k} ${cx} ${cy - r} Z" fill="${fill}"/>`
  );
}

/** A bold tick, used on the laptop, the clipboard cover and elsewhere. */
function tick(x: number, y: number, s: number, stroke: string, width: number): string {
  return (
    `<path d="M ${x} ${y} l ${s * 0.35} ${s * 0.35} l ${s * 0.65} ${-s * 0.7}" fill="none" ` +
    `stroke="${stroke}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"/>`
  );
}

/* -------------------------------------------------------------------------- */
/* Reusable drawings                                                           */
/* -------------------------------------------------------------------------- */

type VehicleKind = 'sedan' | 'suv' | 'pickup';

interface VehicleShape {
  body: string;
  windows: string[];
  wheels: [number, number];
  wheelR: number;
  doorLines: string;
  handles: number[];
  mirror: [number, number];
}

/*
 * Side-view vehicles in a 500 x 180 local box; the tires touch y = 180.
 * One shape per kind so the review cards can show the vehicle the sample
 * message talks about.
 */
const VEHICLES: Record<VehicleKind, VehicleShape> = {
  sedan: {
    body:
      'M 18 128 C 14 104 22 92 44 88 L 128 80 C 150 60 172 40 196 32 C 208 28 222 26 236 26 L 326 26 ' +
      'C 346 26 360 32 374 44 L 408 76 L 462 84 C 484 88 494 98 494 114 L 494 130 ' +
      'C 494 140 488 146 478 146 L 30 146 C 22 146 18 140 18 128 Z',
    windows: [
      'M 148 80 C 166 62 184 46 202 40 C 212 37 224 36 236 36 L 256 36 L 256 80 Z',
      'M 270 36 L 326 36 C 340 36 350 40 360 48 L 392 80 L 270 80 Z',
    ],
    wheels: [122, 396],
    wheelR: 34,
    doorLines: 'M 263 84 L 263 140 M 392 86 L 392 118',
    handles: [236, 366],
    mirror: [392, 76],
  },
  suv: {
    body:
      'M 16 130 L 16 58 C 16 40 26 28 46 28 L 322 28 C 338 28 350 34 362 46 L 400 80 L 466 88 ' +
      'C 486 92 494 102 494 118 L 494 132 C 494 140 488 146 480 146 L 26 146 C 20 146 16 140 16 132 Z',
    windows: [
      'M 34 80 L 34 52 C 34 44 40 38 50 38 L 148 38 L 148 80 Z',
      'M 162 38 L 258 38 L 258 80 L 162 80 Z',
      'M 272 38 L 320 38 C 332 38 342 42 350 50 L 382 80 L 272 80 Z',
    ],
    wheels: [118, 392],
    wheelR: 37,
    doorLines: 'M 155 84 L 155 136 M 265 84 L 265 140 M 384 86 L 384 118',
    handles: [230, 346],
    mirror: [384, 78],
  },
  pickup: {
    body:
      'M 16 134 L 16 78 L 212 78 L 212 42 C 212 33 218 28 228 28 L 316 28 C 332 28 342 34 352 44 L 392 82 ' +
      'L 466 88 C 486 92 494 102 494 118 L 494 132 C 494 140 488 146 480 146 L 26 146 C 20 146 16 140 16 134 Z',
    windows: ['M 228 38 L 312 38 C 324 38 334 42 342 50 L 372 82 L 228 82 Z'],
    wheels: [108, 398],
    wheelR: 36,
    doorLines: 'M 212 84 L 212 140 M 376 86 L 376 120 M 24 86 L 204 86',
    handles: [336],
    mirror: [376, 80],
  },
};

interface VehicleOptions {
  kind?: VehicleKind;
  body: string;
  /** A darker step of the body colour for arches, seams and sills. */
  shade: string;
  /** A lighter step for the shoulder highlight. */
  light: string;
}

/** A flat side-view vehicle; place it with a transform. */
function vehicle(o: VehicleOptions): string {
  const v = VEHICLES[o.kind ?? 'sedan'];
  const [w1, w2] = v.wheels;
  const r = v.wheelR;
  const arch = (cx: number) => `M ${cx - r - 8} 146 A ${r + 8} ${r + 8} 0 0 1 ${cx + r + 8} 146 Z`;
  const wheel = (cx: number) =>
    circle(cx, 146, r, TINT.tire) +
    circle(cx, 146, r * 0.55, TINT.greyMid) +
    circle(cx, 146, r * 0.55, 'none', `stroke="${TINT.greyDark}" stroke-width="3"`) +
    circle(cx, 146, r * 0.18, TINT.greyDark);
  return [
    // Ground shadow.
    `<ellipse cx="256" cy="181" rx="246" ry="9" fill="${PALETTE.navy}" opacity="0.14"/>`,
    `<path d="${v.body}" fill="${o.body}"/>`,
    // Shoulder highlight along the belt line gives the flat body some volume.
    `<path d="M 30 96 L 486 100" stroke="${o.light}" stroke-width="6" stroke-linecap="round" opacity="0.55"/>`,
    ...v.windows.map((d) => `<path d="${d}" fill="${TINT.glass}"/>`),
    // One diagonal reflection per window reads as glass even at small sizes.
    ...v.windows.map(
      (d, i) =>
        `<clipPath id="win-${o.kind ?? 'sedan'}-${i}"><path d="${d}"/></clipPath>` +
        `<g clip-path="url(#win-${o.kind ?? 'sedan'}-${i})"><path d="M 150 100 L 330 -20 L 352 -20 L 172 100 Z" ` +
        `fill="${TINT.white}" opacity="0.55" transform="translate(${i * 60 - 20} 0)"/></g>`,
    ),
    `<path d="${v.doorLines}" stroke="${o.shade}" stroke-width="3" fill="none" stroke-linecap="round"/>`,
    ...v.handles.map((x) => rect(x - 12, 92, 24, 6, o.shade, 3)),
    // Mirror, lights and sill.
    `<path d="M ${v.mirror[0]} ${v.mirror[1]} l 10 -10 l 12 2 l -4 12 Z" fill="${o.shade}"/>`,
    `<path d="M 476 98 L 494 101 L 494 112 L 472 110 Z" fill="${TINT.headlight}"/>`,
    rect(16, 98, 10, 16, TINT.red, 3),
    `<path d="M ${w1 + r + 8} 134 L ${w2 - r - 8} 134 L ${w2 - r - 8} 146 L ${w1 + r + 8} 146 Z" fill="${o.shade}" opacity="0.6"/>`,
    `<path d="${arch(w1)}" fill="${o.shade}"/>`,
    `<path d="${arch(w2)}" fill="${o.shade}"/>`,
    wheel(w1),
    wheel(w2),
  ].join('');
}

interface GavelOptions {
  head: string;
  band: string;
  handle: string;
}

/**
 * A gavel in a local frame: head centred on the origin, handle pointing down.
 * Rotate it so the head's left end meets the sound block.
 */
function gavel(o: GavelOptions): string {
  return [
    rect(-10, 26, 20, 190, o.handle, 10),
    rect(-66, -30, 132, 60, o.head, 12),
    rect(-80, -36, 18, 72, o.head, 7),
    rect(62, -36, 18, 72, o.head, 7),
    rect(-48, -30, 12, 60, o.band),
    rect(36, -30, 12, 60, o.band),
    // Soft top-edge highlight on the head.
    rect(-58, -24, 116, 8, TINT.white, 4, 'opacity="0.18"'),
  ].join('');
}

/** The round sound block the gavel strikes, centred on (0, 0) at its top face. */
function soundBlock(top: string, side: string): string {
  return (
    `<path d="M -86 0 L -86 24 A 86 18 0 0 0 86 24 L 86 0 Z" fill="${side}"/>` +
    `<ellipse cx="0" cy="0" rx="86" ry="18" fill="${top}"/>`
  );
}

/**
 * Places a gavel so that the lower corner of its left end cap rests on the
 * strike point (x, y): the head visibly meets the block instead of hovering.
 */
function gavelStriking(x: number, y: number, angle: number, scale: number, colours: GavelOptions): string {
  const a = (angle * Math.PI) / 180;
  // Lower corner of the left end cap in the gavel's own frame (inset for its rounding).
  const [cx, cy] = [-78, 34];
  const dx = (cx * Math.cos(a) - cy * Math.sin(a)) * scale;
  const dy = (cx * Math.sin(a) + cy * Math.cos(a)) * scale;
  return group(`translate(${round1(x - dx)} ${round1(y - dy)}) rotate(${angle}) scale(${scale})`, gavel(colours));
}

/** Three short strokes fanning out to the left of the strike point: "it just struck". */
function impactLines(x: number, y: number, colour: string, scale = 1): string {
  return [196, 214, 232]
    .map((deg) => {
      const a = (deg * Math.PI) / 180;
      const [r1, r2] = [50 * scale, 76 * scale];
      return (
        `<path d="M ${round1(x + r1 * Math.cos(a))} ${round1(y + r1 * Math.sin(a))} ` +
        `L ${round1(x + r2 * Math.cos(a))} ${round1(y + r2 * Math.sin(a))}" ` +
        `stroke="${colour}" stroke-width="${7 * scale}" stroke-linecap="round"/>`
      );
    })
    .join('');
}

interface TagOptions {
  label: string;
  /** Optional second line, e.g. a price. */
  price?: string;
  fill: string;
  ink: string;
  /** Colour showing through the string hole. */
  hole: string;
  /** Which end has the point and the hole (the end the string is tied to). */
  holeSide?: 'left' | 'right';
}

/**
 * A price tag drawn 200 x 100. The hole is at (30, 50) on the left, or at
 * (170, 50) when holeSide is "right"; the text is centred on the flat part.
 */
function priceTag(o: TagOptions): string {
  const right = o.holeSide === 'right';
  const shape =
    'M 4 50 L 40 6 Q 45 0 53 0 L 188 0 Q 200 0 200 12 L 200 88 Q 200 100 188 100 L 53 100 Q 45 100 40 94 Z';
  // Mirror only the outline, never the text.
  const outline = `<path d="${shape}" fill="${o.fill}"${right ? ' transform="translate(200 0) scale(-1 1)"' : ''}/>`;
  const textX = right ? 80 : 120;
  const label = o.price
    ? text(textX, 50, o.label, { size: 38, fill: o.ink, bold: true, anchor: 'middle', letterSpacing: 2 }) +
      text(textX, 84, o.price, { size: 24, fill: o.ink, bold: true, anchor: 'middle' })
    : text(textX, 65, o.label, { size: 42, fill: o.ink, bold: true, anchor: 'middle', letterSpacing: 2 });
  return outline + circle(right ? 170 : 30, 50, 9, o.hole) + label;
}

/** The string from a car's mirror to a tag's hole, with a little slack. */
function tagString(from: { x: number; y: number }, to: { x: number; y: number }): string {
  const midX = round1((from.x + to.x) / 2);
  const midY = round1(Math.max(from.y, to.y) + 10);
  return (
    `<path d="M ${round1(from.x)} ${round1(from.y)} Q ${midX} ${midY} ${round1(to.x)} ${round1(to.y)}" ` +
    `stroke="${PALETTE.navy}" stroke-width="3" fill="none" stroke-linecap="round"/>`
  );
}

/** A map pin whose point sits at (0, 0). */
function pin(fill: string, dot: string, scale = 1): string {
  return group(
    `scale(${scale})`,
    `<ellipse cx="0" cy="2" rx="12" ry="4" fill="${PALETTE.navy}" opacity="0.25"/>` +
      `<path d="M 0 0 C -6 -14 -22 -26 -22 -42 A 22 22 0 0 1 22 -42 C 22 -26 6 -14 0 0 Z" fill="${fill}"/>` +
      circle(0, -42, 8.5, dot),
  );
}

/* -------------------------------------------------------------------------- */
/* 1. Hero (800 x 600 drawing, 4:3)                                            */
/* -------------------------------------------------------------------------- */

/** A laptop showing a video lesson and a progress bar: "learn online first". */
function laptop(): string {
  const screen = [
    rect(0, 0, 330, 212, PALETTE.deepBlue, 16),
    rect(12, 12, 306, 188, TINT.white, 6),
    // Video area with a play button.
    rect(24, 24, 172, 104, PALETTE.blue, 8),
    `<path d="M 24 96 L 70 64 L 104 88 L 140 60 L 196 104 L 196 120 Q 196 128 188 128 L 32 128 Q 24 128 24 120 Z" fill="${PALETTE.deepBlue}" opacity="0.55"/>`,
    circle(110, 70, 24, PALETTE.amber),
    `<path d="M 102 58 L 124 70 L 102 82 Z" fill="${PALETTE.navy}"/>`,
    // Lesson list with ticks for the lessons already done.
    ...[0, 1, 2].map((i) => {
      const y = 32 + i * 32;
      const done = i < 2;
      return (
        circle(218, y + 6, 9, done ? PALETTE.green : TINT.greyLight) +
        (done ? tick(213, y + 6, 11, TINT.white, 3) : '') +
        rect(234, y + 1, i === 1 ? 56 : 72, 10, TINT.greyMid, 5)
      );
    }),
    // Course progress.
    text(24, 160, 'Lesson 3 of 5', { size: 15, fill: PALETTE.slate, bold: true }),
    rect(24, 172, 282, 12, TINT.greyLight, 6),
    rect(24, 172, 170, 12, PALETTE.amber, 6),
  ].join('');
  const base =
    `<path d="M -26 212 L 356 212 L 372 228 Q 374 236 364 236 L -34 236 Q -44 236 -42 228 Z" fill="${TINT.greyDark}"/>` +
    rect(130, 212, 70, 7, PALETTE.slate, 3, 'opacity="0.5"');
  return screen + base;
}

function heroSvg(): string {
  // Where the gavel lands: the middle of the sound block's top face.
  const block = { x: 592, y: 262 };
  // The car's transform; the tag hangs from its mirror.
  const car = { x: 150, y: 332, s: 1.06 };
  const mirror = { x: car.x + 400 * car.s, y: car.y + 70 * car.s };
  // The tag hangs between the wheels so it hides no wheel or light.
  const tagHole = { x: mirror.x - 66, y: mirror.y + 42 };
  return [
    rect(0, 0, 800, 600, PALETTE.sky),
    // Soft backdrop shapes frame the scene without competing with it.
    circle(610, 250, 230, TINT.skyDeep),
    circle(70, 540, 130, TINT.skyDeep),
    rect(0, 520, 800, 80, TINT.skyLine, 0, 'opacity="0.45"'),
    // Laptop, back left: the online course comes first.
    group('translate(58 86)', laptop()),
    // Completed-lesson badge on the laptop corner.
    circle(382, 96, 26, PALETTE.green),
    tick(369, 96, 26, TINT.white, 6),
    // Gavel striking its block, upper right: the auction.
    group(`translate(${block.x} ${block.y})`, soundBlock(PALETTE.blue, PALETTE.deepBlue)),
    gavelStriking(block.x + 4, block.y + 2, -26, 1, { head: PALETTE.navy, band: PALETTE.amber, handle: PALETTE.deepBlue }),
    impactLines(block.x, block.y - 4, PALETTE.amber),
    // The car, front and centre: what the visitor came for.
    group(
      `translate(${car.x} ${car.y}) scale(${car.s})`,
      vehicle({ kind: 'sedan', body: PALETTE.blue, shade: PALETTE.deepBlue, light: '#5b8cc9' }),
    ),
    // SOLD tag tied to the mirror, hanging over the doors.
    tagString(mirror, tagHole),
    group(
      `translate(${round1(tagHole.x)} ${round1(tagHole.y)}) rotate(-7) scale(0.82) translate(-170 -50)`,
      priceTag({ label: 'SOLD', price: '$2,400', fill: PALETTE.amber, ink: PALETTE.navy, hole: PALETTE.deepBlue, holeSide: 'right' }),
    ),
    sparkle(92, 414, 16, PALETTE.amber),
    sparkle(482, 60, 12, PALETTE.amber),
    sparkle(748, 440, 11, PALETTE.blue),
    circle(470, 330, 6, PALETTE.amber),
    circle(36, 70, 8, TINT.skyLine),
  ].join('');
}

/* -------------------------------------------------------------------------- */
/* 2. Check auctions: map of the continental U.S. (800 x 600, 4:3)             */
/* -------------------------------------------------------------------------- */

/*
 * A simplified outline of the lower 48 states as [longitude, latitude]
 * points, clockwise from Cape Flattery. Hand-picked coastal landmarks, enough
 * to be recognisable at a glance (Great Lakes, Florida, Gulf, Cape Cod).
 */
// prettier-ignore
const US_OUTLINE: [number, number][] = [
  [-124.7, 48.4], [-123.1, 49.0], [-95.2, 49.0], [-94.7, 48.8], [-93.0, 48.6], [-91.0, 48.2], [-89.6, 48.0],
  [-92.1, 46.8], [-90.4, 46.6], [-87.6, 46.5], [-85.0, 46.8], [-84.4, 46.5], [-84.7, 46.0], [-85.6, 45.9],
  [-87.0, 45.7], [-87.6, 45.1], [-87.9, 44.0], [-87.9, 43.0], [-87.6, 41.8], [-87.2, 41.6], [-86.5, 42.1],
  [-86.2, 43.6], [-86.5, 44.6], [-85.6, 45.2], [-84.7, 45.8], [-83.5, 45.3], [-83.3, 44.3], [-83.9, 43.9],
  [-82.5, 43.0], [-83.1, 42.3], [-83.5, 41.7], [-81.7, 41.5], [-80.1, 42.1], [-78.9, 42.9], [-79.1, 43.3],
  [-76.2, 43.5], [-76.3, 44.2], [-74.8, 45.0], [-71.5, 45.0], [-70.9, 45.3], [-70.2, 46.4], [-69.2, 47.4],
  [-68.2, 47.3], [-67.8, 47.1], [-67.8, 45.7], [-67.0, 44.8], [-68.8, 44.3], [-70.2, 43.7], [-70.8, 42.9],
  [-70.6, 42.6], [-71.0, 42.3], [-70.0, 42.0], [-70.0, 41.7], [-70.6, 41.6], [-71.4, 41.4], [-72.9, 41.2],
  [-74.0, 40.6], [-74.0, 40.0], [-74.9, 38.9], [-75.5, 39.4], [-75.1, 38.6], [-75.9, 37.2], [-76.3, 37.0],
  [-75.9, 36.6], [-75.5, 35.2], [-76.5, 34.7], [-77.9, 33.9], [-79.2, 33.2], [-80.0, 32.7], [-81.1, 32.0],
  [-81.4, 30.4], [-80.6, 28.4], [-80.0, 26.7], [-80.1, 25.8], [-80.9, 25.2], [-81.7, 25.9], [-82.6, 27.5],
  [-82.7, 28.8], [-83.7, 29.9], [-84.4, 29.9], [-85.0, 29.6], [-85.6, 30.1], [-87.2, 30.3], [-88.0, 30.4],
  [-89.4, 30.2], [-89.2, 29.2], [-90.5, 29.1], [-92.0, 29.6], [-93.8, 29.7], [-94.8, 29.3], [-96.5, 28.3],
  [-97.3, 27.6], [-97.2, 25.95], [-99.2, 26.6], [-99.5, 27.5], [-101.0, 29.4], [-102.4, 29.8], [-103.3, 29.0],
  [-104.5, 29.6], [-106.5, 31.8], [-108.2, 31.8], [-108.2, 31.33], [-111.1, 31.33], [-114.8, 32.5],
  [-117.1, 32.5], [-118.4, 33.8], [-120.6, 34.5], [-121.9, 36.6], [-122.5, 37.8], [-123.0, 38.0],
  [-123.7, 39.0], [-124.4, 40.4], [-124.2, 42.0], [-124.5, 42.8], [-124.0, 44.6], [-123.9, 46.2], [-124.1, 47.0],
];

/** Cities for the pins, spread across the country: [longitude, latitude]. */
// prettier-ignore
const PIN_SITES: [number, number][] = [
  [-122.4, 46.4], [-118.5, 34.4], [-112.0, 33.5], [-104.9, 39.7], [-116.4, 43.6],
  [-87.9, 41.9], [-84.4, 33.8], [-77.5, 40.8], [-93.4, 45.2], [-81.5, 28.6], [-98.2, 30.0],
];

/*
 * Albers equal-area conic projection (standard parallels 29.5° and 45.5°), the
 * projection most U.S. maps use, so the outline has the familiar curved
 * northern border.
 */
function albers(lon: number, lat: number): [number, number] {
  const rad = Math.PI / 180;
  const phi1 = 29.5 * rad;
  const phi2 = 45.5 * rad;
  const phi0 = 37.5 * rad;
  const lambda0 = -96 * rad;
  const n = (Math.sin(phi1) + Math.sin(phi2)) / 2;
  const c = Math.cos(phi1) ** 2 + 2 * n * Math.sin(phi1);
  const rho = (phi: number) => Math.sqrt(c - 2 * n * Math.sin(phi)) / n;
  const theta = n * (lon * rad - lambda0);
  const r = rho(lat * rad);
  return [r * Math.sin(theta), rho(phi0) - r * Math.cos(theta)];
}

/** Projects and scales lon/lat points into a box, keeping the aspect ratio. */
function fitProjection(box: { x: number; y: number; w: number; h: number }) {
  const projected = US_OUTLINE.map(([lon, lat]) => albers(lon, lat));
  const xs = projected.map((p) => p[0]);
  const ys = projected.map((p) => p[1]);
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  const minY = Math.min(...ys);
  const maxY = Math.max(...ys);
  const scale = Math.min(box.w / (maxX - minX), box.h / (maxY - minY));
  const offX = box.x + (box.w - (maxX - minX) * scale) / 2;
  const offY = box.y + (box.h - (maxY - minY) * scale) / 2;
  // Projected y grows northwards; SVG y grows downwards, hence the flip.
  return (lon: number, lat: number): [number, number] => {
    const [px, py] = albers(lon, lat);
    return [round1(offX + (px - minX) * scale), round1(offY + (maxY - py) * scale)];
  };
}

function checkAuctionsSvg(): string {
  const project = fitProjection({ x: 70, y: 162, w: 660, h: 396 });
  const outline = 'M ' + US_OUTLINE.map(([lon, lat]) => project(lon, lat).join(' ')).join(' L ') + ' Z';
  const title = 'Find auctions in your state';
  const subtitle = 'Government, repo and seizure auctions across the U.S.';
  const titleSize = 44;
  const lensCentre = project(-92.5, 38.2);
  const [lx, ly] = lensCentre;
  const lensR = 74;
  return [
    rect(0, 0, 800, 600, PALETTE.sky),
    circle(700, 90, 150, TINT.skyDeep),
    circle(60, 560, 110, TINT.skyDeep),
    text(400, 74, title, { size: titleSize, fill: PALETTE.navy, bold: true, anchor: 'middle' }),
    text(400, 112, subtitle, { size: 21, fill: PALETTE.slate, anchor: 'middle' }),
    // The map: a darker copy offset downwards reads as a raised, cut-out shape.
    `<path d="${outline}" fill="${PALETTE.deepBlue}" transform="translate(0 8)" stroke-linejoin="round"/>`,
    `<path d="${outline}" fill="${PALETTE.blue}" stroke="${PALETTE.blue}" stroke-width="4" stroke-linejoin="round"/>`,
    // Pins, amber with one green "found it" pin under the lens.
    ...PIN_SITES.map(([lon, lat]) => {
      const [x, y] = project(lon, lat);
      return group(`translate(${x} ${y})`, pin(PALETTE.amber, TINT.white, 0.9));
    }),
    // Magnifying glass over the middle of the country.
    `<clipPath id="lens"><circle cx="${lx}" cy="${ly}" r="${lensR}"/></clipPath>`,
    `<g clip-path="url(#lens)">` +
      circle(lx, ly, lensR, '#ffffff', 'opacity="0.35"') +
      group(`translate(${lx} ${ly + 34})`, pin(PALETTE.green, TINT.white, 1.45)) +
      `</g>`,
    group(
      `translate(${lx} ${ly}) rotate(-45)`,
      rect(-14, lensR + 4, 28, 22, PALETTE.navy, 4) + rect(-16, lensR + 22, 32, 92, PALETTE.amber, 14),
    ),
    circle(lx, ly, lensR, 'none', `stroke="${PALETTE.navy}" stroke-width="14"`),
    `<path d="M ${lx - 46} ${ly - 22} A 52 52 0 0 1 ${lx - 18} ${ly - 50}" stroke="#ffffff" stroke-width="8" stroke-linecap="round" fill="none" opacity="0.8"/>`,
    sparkle(48, 214, 13, PALETTE.amber),
    sparkle(724, 470, 12, PALETTE.amber),
  ].join('');
}

/* -------------------------------------------------------------------------- */
/* 3. eBook covers (300 x 400, 3:4)                                            */
/* -------------------------------------------------------------------------- */

interface CoverStyle {
  title: string;
  bg: string;
  /** Title and icon colour. */
  ink: string;
  /** Accent for the icon and the label pill. */
  accent: string;
  icon: (ink: string, accent: string, bg: string) => string;
}

/* Cover icons, each drawn in a 120 x 120 box centred on (0, 0). */

function iconClipboard(ink: string, accent: string, bg: string): string {
  return [
    rect(-42, -50, 84, 104, ink, 10),
    rect(-34, -40, 68, 86, bg, 5),
    rect(-18, -58, 36, 18, accent, 6),
    ...[0, 1, 2].map((i) => {
      const y = -22 + i * 24;
      return tick(-26, y, 14, accent, 4.5) + rect(-6, y - 4, 32, 7, ink, 3.5);
    }),
  ].join('');
}

function iconGavel(ink: string, accent: string): string {
  return (
    group('translate(18 34) scale(0.38)', soundBlock(accent, ink)) +
    group('translate(14 -16) rotate(-38) scale(0.42)', gavel({ head: ink, band: accent, handle: ink }))
  );
}

function iconHistoryReport(ink: string, accent: string, bg: string): string {
  return [
    `<path d="M -44 -54 L 18 -54 L 40 -32 L 40 54 L -44 54 Z" fill="${ink}"/>`,
    `<path d="M 18 -54 L 18 -32 L 40 -32 Z" fill="${bg}" opacity="0.35"/>`,
    ...[0, 1, 2, 3].map((i) => rect(-32, -36 + i * 18, i % 2 ? 40 : 56, 7, bg, 3.5, 'opacity="0.55"')),
    // Magnifier over the report: "read the history carefully".
    circle(22, 26, 24, bg),
    circle(22, 26, 24, 'none', `stroke="${accent}" stroke-width="8"`),
    `<path d="M 39 43 L 56 60" stroke="${accent}" stroke-width="11" stroke-linecap="round"/>`,
  ].join('');
}

function iconFinancing(ink: string, accent: string, bg: string): string {
  return [
    // A banknote behind a coin.
    group('rotate(-12)', rect(-56, -36, 96, 58, ink, 8) + circle(-8, -7, 15, bg, 'opacity="0.35"')),
    circle(22, 20, 36, accent),
    circle(22, 20, 28, 'none', `stroke="${ink}" stroke-width="4"`),
    text(22, 34, '$', { size: 40, fill: ink, bold: true, anchor: 'middle' }),
  ].join('');
}

function iconRepairResale(ink: string, accent: string, bg: string): string {
  return [
    // A wrench for the repairs...
    group(
      'rotate(45)',
      rect(-8, -8, 16, 76, ink, 8) +
        circle(0, -22, 26, ink) +
        rect(-9, -52, 18, 30, bg) +
        circle(0, 50, 5, bg),
    ),
    // ...and a rising arrow for the resale.
    `<path d="M -10 46 L 14 18 L 28 32 L 50 6" fill="none" stroke="${accent}" stroke-width="9" stroke-linecap="round" stroke-linejoin="round"/>`,
    `<path d="M 34 2 L 56 0 L 54 22 Z" fill="${accent}"/>`,
  ].join('');
}

function iconPaperwork(ink: string, accent: string, bg: string): string {
  return [
    rect(-46, -54, 84, 108, ink, 6),
    rect(-36, -42, 64, 10, bg, 3, 'opacity="0.85"'),
    ...[0, 1, 2].map((i) => rect(-36, -20 + i * 15, i === 2 ? 36 : 64, 6, bg, 3, 'opacity="0.45"')),
    // An official seal with ribbons.
    `<path d="M 22 42 L 14 66 L 26 60 L 34 70 L 38 44 Z" fill="${accent}"/>`,
    circle(28, 34, 20, accent),
    circle(28, 34, 13, 'none', `stroke="${bg}" stroke-width="3"`),
    tick(21, 34, 14, bg, 3.5),
  ].join('');
}

const COVERS: CoverStyle[] = [
  {
    title: 'Vehicle Inspection Checklist',
    bg: PALETTE.blue,
    ink: TINT.white,
    accent: PALETTE.amber,
    icon: iconClipboard,
  },
  {
    title: 'Auction Bidding Strategies',
    bg: PALETTE.navy,
    ink: TINT.white,
    accent: PALETTE.amber,
    icon: iconGavel,
  },
  {
    title: 'Understanding Vehicle History Reports',
    bg: PALETTE.green,
    ink: TINT.white,
    accent: PALETTE.amber,
    icon: iconHistoryReport,
  },
  {
    title: 'Financing Your Auction Car',
    bg: PALETTE.amber,
    ink: PALETTE.navy,
    accent: TINT.white,
    icon: iconFinancing,
  },
  {
    title: 'Repairs and Resale: Flipping Auction Cars',
    bg: PALETTE.slate,
    ink: TINT.white,
    accent: PALETTE.amber,
    icon: iconRepairResale,
  },
  {
    title: 'Title, Registration and Paperwork Guide',
    bg: PALETTE.sky,
    ink: PALETTE.navy,
    accent: PALETTE.amber,
    icon: iconPaperwork,
  },
];

function ebookSvg(index: number): string {
  const c = COVERS[index];
  if (!c) throw new Error(`No cover ${index}`);
  const pad = 30;
  const textW = 300 - pad * 2 - 6;
  // "Main: Subtitle" titles get a bold main line and a lighter subtitle, which
  // wraps far better than one long bold title.
  const [main = c.title, subtitle] = c.title.split(': ');
  const sub = subtitle ? fitText(subtitle, textW, 2, [19, 18, 17, 16], false) : undefined;
  const subLineHeight = sub ? Math.round(sub.size * 1.3) : 0;
  const subBlock = sub ? sub.lines.length * subLineHeight + 6 : 0;
  // The title sits in the lower half; it shrinks rather than overflows.
  const fit = fitText(main, textW, sub ? 3 : 4, [30, 28, 26, 24, 22]);
  const lineHeight = Math.round(fit.size * 1.18);
  const textBottom = 340;
  const firstBaseline = textBottom - subBlock - (fit.lines.length - 1) * lineHeight;
  const label = 'BONUS EBOOK';
  const labelSize = 14;
  const labelW = textWidth(label, labelSize, true, 1.5) + 22;
  const light = c.bg === PALETTE.sky || c.bg === PALETTE.amber;
  return [
    rect(0, 0, 300, 400, c.bg),
    // A large faint ring in the corner adds texture without noise.
    circle(262, 96, 130, light ? PALETTE.navy : TINT.white, 'opacity="0.06"'),
    // Spine shadow and highlight so it reads as a book, not a tile.
    rect(0, 0, 14, 400, PALETTE.navy, 0, `opacity="${light ? 0.14 : 0.28}"`),
    rect(14, 0, 2, 400, TINT.white, 0, 'opacity="0.25"'),
    // "Bonus eBook" label.
    rect(pad, 26, labelW, 28, light ? PALETTE.navy : PALETTE.amber, 14),
    text(pad + 11, 45.5, label, {
      size: labelSize,
      fill: light ? TINT.white : PALETTE.navy,
      bold: true,
      letterSpacing: 1.5,
    }),
    text(270, 46, String(index + 1).padStart(2, '0'), {
      size: 20,
      fill: c.ink,
      bold: true,
      anchor: 'end',
      opacity: 0.55,
    }),
    // Icon on a soft disc.
    circle(150, 146, 68, TINT.white, `opacity="${light ? 0.55 : 0.12}"`),
    group('translate(150 146)', c.icon(c.ink, c.accent, c.bg)),
    // Title, with a short accent rule above it.
    rect(pad, firstBaseline - fit.size - 16, 36, 5, c.accent === TINT.white ? PALETTE.navy : c.accent, 2.5),
    lines(pad, firstBaseline, fit.lines, lineHeight, { size: fit.size, fill: c.ink, bold: true }),
    sub
      ? lines(pad, textBottom - (sub.lines.length - 1) * subLineHeight, sub.lines, subLineHeight, {
          size: sub.size,
          fill: c.ink,
          opacity: 0.88,
        })
      : '',
    // Footer.
    text(pad, 376, 'Auctions Guide', { size: 14, fill: c.ink, bold: true, opacity: 0.75 }),
  ].join('');
}

/* -------------------------------------------------------------------------- */
/* 4. Sample review cards (800 x 600, 4:3)                                     */
/* -------------------------------------------------------------------------- */

/*
 * We have no real customer reviews, and invented testimonials are not allowed
 * (U.S. FTC rules on endorsements). These cards are layout placeholders: each
 * carries a banner saying so, plus a faint "SAMPLE" watermark, so nobody can
 * mistake them for a real customer's words.
 */
interface SampleReview {
  name: string;
  /** Last-name initial, shown as "Marcus T." and in the avatar. */
  initial: string;
  state: string;
  quote: string;
  vehicle: string;
  kind: VehicleKind;
  price: string;
  venue: string;
  /** Avatar and car colour (dark enough for white initials). */
  colour: string;
  colourShade: string;
  colourLight: string;
  /** Page background behind the card. */
  backdrop: string;
}

const SAMPLE_REVIEWS: SampleReview[] = [
  {
    name: 'Marcus',
    initial: 'T',
    state: 'Ohio',
    quote:
      'Bought a 2016 Honda Civic at a county auction for $2,400. The inspection lesson stopped me bidding on a flood car the week before.',
    vehicle: '2016 Honda Civic',
    kind: 'sedan',
    price: '$2,400',
    venue: 'County auction',
    colour: PALETTE.blue,
    colourShade: PALETTE.deepBlue,
    colourLight: '#5b8cc9',
    backdrop: PALETTE.sky,
  },
  {
    name: 'Priya',
    initial: 'S',
    state: 'Texas',
    quote:
      'Won a 2014 Ford F-150 at a police seizure auction for $6,800. I wrote my max bid down before the sale and stuck to it.',
    vehicle: '2014 Ford F-150',
    kind: 'pickup',
    price: '$6,800',
    venue: 'Police seizure auction',
    colour: PALETTE.green,
    colourShade: '#165a39',
    colourLight: '#4fa57a',
    backdrop: TINT.greenLight,
  },
  {
    name: 'Dennis',
    initial: 'W',
    state: 'Florida',
    quote:
      'My first auction ever. I checked the history report first, then got a 2015 Toyota Camry from a repo sale for $3,900.',
    vehicle: '2015 Toyota Camry',
    kind: 'sedan',
    price: '$3,900',
    venue: 'Repossession sale',
    colour: '#17768a',
    colourShade: '#0f5766',
    colourLight: '#5fb0c0',
    backdrop: '#fdf3e1',
  },
  {
    name: 'Angela',
    initial: 'R',
    state: 'Arizona',
    quote:
      'Found a city fleet auction 20 minutes from home. A 2013 Chevy Tahoe for $5,200 that only needed brakes and tires.',
    vehicle: '2013 Chevy Tahoe',
    kind: 'suv',
    price: '$5,200',
    venue: 'City fleet auction',
    colour: PALETTE.slate,
    colourShade: '#334155',
    colourLight: '#8a9bb3',
    backdrop: TINT.greyLight,
  },
  {
    name: 'Luis',
    initial: 'M',
    state: 'Georgia',
    quote:
      'The bidding lessons helped a lot. I won a 2017 Nissan Altima at a state surplus auction for $4,100 and drove it home.',
    vehicle: '2017 Nissan Altima',
    kind: 'sedan',
    price: '$4,100',
    venue: 'State surplus auction',
    colour: PALETTE.navy,
    colourShade: '#06172d',
    colourLight: '#3c5a85',
    backdrop: '#efeaf7',
  },
  {
    name: 'Karen',
    initial: 'B',
    state: 'Michigan',
    quote:
      'Bought a 2012 Subaru Outback at a government surplus auction for $2,950. The title paperwork was easier than I expected.',
    vehicle: '2012 Subaru Outback',
    kind: 'suv',
    price: '$2,950',
    venue: 'Government surplus auction',
    colour: '#8a3b5c',
    colourShade: '#6a2b45',
    colourLight: '#b86a8c',
    backdrop: '#f6e9ef',
  },
];

/** The amber banner across the top of every sample card. */
function sampleBanner(): string {
  return [
    rect(0, 0, 800, 104, PALETTE.amber),
    // Caution-tape stripes at both ends say "placeholder" before a word is read.
    `<clipPath id="tape"><rect x="0" y="0" width="44" height="104"/><rect x="756" y="0" width="44" height="104"/></clipPath>`,
    `<g clip-path="url(#tape)">` +
      Array.from({ length: 26 }, (_, i) => `<path d="M ${i * 36 - 120} 104 L ${i * 36 - 16} 0 L ${i * 36 + 2} 0 L ${i * 36 - 102} 104 Z" fill="${PALETTE.navy}"/>`).join('') +
      `</g>`,
    rect(0, 100, 800, 4, PALETTE.navy),
    text(400, 48, 'SAMPLE REVIEW', { size: 38, fill: PALETTE.navy, bold: true, anchor: 'middle', letterSpacing: 3 }),
    text(400, 83, '— replace with a real customer screenshot', {
      size: 24,
      fill: PALETTE.navy,
      bold: true,
      anchor: 'middle',
    }),
  ].join('');
}

function reviewSvg(index: number): string {
  const r = SAMPLE_REVIEWS[index];
  if (!r) throw new Error(`No review ${index}`);
  const initials = r.name.slice(0, 1) + r.initial;
  const quoteSize = 26;
  const lineHeight = 38;
  const cardW = 688;
  const quoteLines = balancedWrap(r.quote, cardW - 120, quoteSize);
  const bubbleH = quoteLines.length * lineHeight + 34;
  // Header 112 + bubble + gap 24 + attachment 88 + bottom padding 36.
  const cardH = 112 + bubbleH + 24 + 88 + 36;
  // Centre the card in the space under the banner.
  const card = { x: 56, y: Math.round(104 + (496 - cardH) / 2), w: cardW, h: cardH };
  const bubble = { x: card.x + 40, y: card.y + 112, w: card.w - 80, h: bubbleH };
  const attachY = bubble.y + bubble.h + 24;
  return [
    rect(0, 0, 800, 600, r.backdrop),
    sampleBanner(),
    // Card with a soft drop shadow.
    rect(card.x, card.y + 6, card.w, card.h, PALETTE.navy, 24, 'opacity="0.08"'),
    rect(card.x, card.y, card.w, card.h, TINT.white, 24),
    // Header: avatar, first name and state.
    circle(card.x + 74, card.y + 58, 34, r.colour),
    text(card.x + 74, card.y + 68, initials, { size: 26, fill: TINT.white, bold: true, anchor: 'middle' }),
    text(card.x + 124, card.y + 52, `${r.name} ${r.initial}.`, { size: 26, fill: PALETTE.navy, bold: true }),
    text(card.x + 124, card.y + 82, `${r.state} · sample message`, { size: 19, fill: PALETTE.slate }),
    // Message bubble with the quote.
    rect(bubble.x, bubble.y, bubble.w, bubble.h, PALETTE.sky, 18),
    `<path d="M ${bubble.x + 30} ${bubble.y} l 12 -14 l 12 14 Z" fill="${PALETTE.sky}"/>`,
    lines(bubble.x + 22, bubble.y + 44, quoteLines, lineHeight, { size: quoteSize, fill: PALETTE.navy }),
    // "Photo attachment": the vehicle with its price.
    rect(bubble.x, attachY, 150, 88, TINT.greyLight, 12),
    group(
      `translate(${bubble.x + 12} ${attachY + 18}) scale(0.25)`,
      vehicle({ kind: r.kind, body: r.colour, shade: r.colourShade, light: r.colourLight }),
    ),
    text(bubble.x + 170, attachY + 36, r.vehicle, { size: 22, fill: PALETTE.navy, bold: true }),
    text(bubble.x + 170, attachY + 66, `${r.venue} · ${r.price}`, { size: 19, fill: PALETTE.slate }),
    // Faint diagonal watermark across the card.
    text(400, Math.round(card.y + card.h / 2 + 52), 'SAMPLE', {
      size: 150,
      fill: PALETTE.navy,
      bold: true,
      anchor: 'middle',
      opacity: 0.05,
      transform: `rotate(-18 400 ${Math.round(card.y + card.h / 2)})`,
    }),
  ].join('');
}

/* -------------------------------------------------------------------------- */
/* 5. Open Graph image (1200 x 630)                                            */
/* -------------------------------------------------------------------------- */

function ogSvg(): string {
  const tagline = 'An independent guide to buying vehicles at government, repo and seizure auctions';
  const taglineSize = 36;
  const taglineLines = balancedWrap(tagline, 580, taglineSize);
  const pill = 'Independent review · not an auction or dealer';
  const pillSize = 21;
  const pillW = Math.round(textWidth(pill, pillSize, true) + 44);
  const block = { x: 972, y: 258 };
  const car = { x: 690, y: 356, s: 0.94 };
  const mirror = { x: car.x + 392 * car.s, y: car.y + 72 * car.s };
  const tagHole = { x: mirror.x - 70, y: mirror.y + 40 };
  return [
    rect(0, 0, 1200, 630, PALETTE.navy),
    circle(940, 310, 290, PALETTE.deepBlue),
    circle(940, 310, 220, PALETTE.blue, 'opacity="0.4"'),
    // Brand lockup: the favicon mark on a blue tile (navy on navy would vanish).
    group('translate(72 82) scale(1.5)', faviconBody({ tile: PALETTE.blue })),
    text(192, 150, 'Auctions Guide', { size: 62, fill: TINT.white, bold: true }),
    lines(76, 252, taglineLines, 50, { size: taglineSize, fill: '#d5e3f4' }),
    // Trust line.
    rect(72, 462, pillW, 52, PALETTE.amber, 26),
    text(72 + pillW / 2, 495, pill, { size: pillSize, fill: PALETTE.navy, bold: true, anchor: 'middle' }),
    // Car and gavel motif.
    group(`translate(${block.x} ${block.y})`, soundBlock(PALETTE.blue, '#0f2a4f')),
    gavelStriking(block.x + 4, block.y + 2, -26, 0.95, { head: PALETTE.sky, band: PALETTE.amber, handle: '#b9cde6' }),
    impactLines(block.x, block.y - 4, PALETTE.amber, 0.95),
    group(
      `translate(${car.x} ${car.y}) scale(${car.s})`,
      vehicle({ kind: 'suv', body: PALETTE.amber, shade: TINT.amberDark, light: '#ffd27a' }),
    ),
    tagString(mirror, tagHole),
    group(
      `translate(${round1(tagHole.x)} ${round1(tagHole.y)}) rotate(-7) scale(0.72) translate(-170 -50)`,
      priceTag({ label: 'SOLD', fill: PALETTE.green, ink: TINT.white, hole: PALETTE.amber, holeSide: 'right' }),
    ),
    sparkle(1130, 84, 16, PALETTE.amber),
    sparkle(690, 240, 10, PALETTE.amber),
    sparkle(1150, 560, 12, PALETTE.amber),
  ].join('');
}

/* -------------------------------------------------------------------------- */
/* 6. Favicon                                                                  */
/* -------------------------------------------------------------------------- */

interface MarkOptions {
  /** Square corners (Apple rounds the touch icon itself). */
  fullBleed?: boolean;
  /** Tile colour; navy by default. */
  tile?: string;
  /** Shrinks the gavel towards the centre, for icons that get masked. */
  inset?: number;
}

/**
 * The brand mark in a 64 x 64 box: an amber gavel over its block on a navy
 * tile. Chunky shapes only, so it still reads at 16 px.
 */
function faviconBody(o: MarkOptions = {}): string {
  const mark =
    group('translate(35 25) rotate(-45)', rect(-4, 4, 8, 28, PALETTE.amber, 4) + rect(-17, -10, 34, 20, PALETTE.amber, 4)) +
    rect(8, 48, 30, 8, PALETTE.amber, 3);
  const s = 1 - (o.inset ?? 0);
  const t = round1((64 * (1 - s)) / 2);
  return [
    rect(0, 0, 64, 64, o.tile ?? PALETTE.navy, o.fullBleed ? 0 : 14),
    s === 1 ? mark : group(`translate(${t} ${t}) scale(${s})`, mark),
  ].join('');
}

function faviconSvg(o: MarkOptions = {}, size = 64): string {
  return svgDoc(64, 64, faviconBody(o), size, size);
}

/* -------------------------------------------------------------------------- */
/* Rasterising                                                                 */
/* -------------------------------------------------------------------------- */

interface ResponsiveSpec {
  name: string;
  /** Drawing size (the SVG viewBox). */
  viewW: number;
  viewH: number;
  widths: number[];
  /** The largest CSS width the page shows it at; its AVIF is size-checked. */
  displayWidth: number;
  /** AVIF budget at displayWidth, in bytes. */
  budget: number;
  draw: () => string;
}

const RESPONSIVE: ResponsiveSpec[] = [
  {
    name: 'hero',
    viewW: 800,
    viewH: 600,
    widths: [400, 560, 800, 1120],
    displayWidth: 560,
    budget: 40_000,
    draw: heroSvg,
  },
  {
    name: 'check-auctions',
    viewW: 800,
    viewH: 600,
    widths: [400, 520, 800, 1040],
    displayWidth: 520,
    budget: 40_000,
    draw: checkAuctionsSvg,
  },
  ...COVERS.map((_, i) => ({
    name: `ebook-${i + 1}`,
    viewW: 300,
    viewH: 400,
    widths: [150, 300],
    displayWidth: 150,
    budget: 10_000,
    draw: () => ebookSvg(i),
  })),
  ...SAMPLE_REVIEWS.map((_, i) => ({
    name: `review-${i + 1}`,
    viewW: 800,
    viewH: 600,
    widths: [360, 560, 720, 1120],
    displayWidth: 560,
    budget: 40_000,
    draw: () => reviewSvg(i),
  })),
];

const ENCODE = {
  avif: { quality: 50, effort: 4 },
  webp: { quality: 72, effort: 5 },
  jpeg: { quality: 75, mozjpeg: true },
} as const;

type Format = keyof typeof ENCODE;
const EXT: Record<Format, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' };

interface Written {
  file: string;
  bytes: number;
}

async function write(file: string, data: Buffer | string): Promise<Written> {
  await writeFile(file, data);
  return { file: path.relative(ROOT, file), bytes: Buffer.byteLength(data) };
}

/**
 * Renders the SVG at exactly the target pixel size (crisper than scaling a big
 * bitmap down) and encodes it in every format. The drawings are opaque, so
 * the alpha channel is dropped.
 */
async function renderVariant(svg: string, width: number, height: number, base: string): Promise<Written[]> {
  const raster = sharp(Buffer.from(svg)).resize(width, height).flatten({ background: PALETTE.offWhite });
  return Promise.all(
    (Object.keys(ENCODE) as Format[]).map(async (format) => {
      const img = raster.clone();
      const data =
        format === 'avif'
          ? await img.avif(ENCODE.avif).toBuffer()
          : format === 'webp'
            ? await img.webp(ENCODE.webp).toBuffer()
            : await img.jpeg(ENCODE.jpeg).toBuffer();
      return write(path.join(IMAGES_DIR, `${base}-${width}.${EXT[format]}`), data);
    }),
  );
}

async function renderResponsive(spec: ResponsiveSpec): Promise<Written[]> {
  const drawing = spec.draw();
  const out: Written[] = [];
  for (const width of spec.widths) {
    const height = Math.round((width * spec.viewH) / spec.viewW);
    const svg = svgDoc(spec.viewW, spec.viewH, drawing, width, height);
    out.push(...(await renderVariant(svg, width, height, spec.name)));
  }
  return out;
}

async function renderOg(): Promise<Written[]> {
  const img = sharp(Buffer.from(svgDoc(1200, 630, ogSvg()))).flatten({ background: PALETTE.navy });
  return Promise.all([
    write(path.join(IMAGES_DIR, 'og-image.png'), await img.clone().png({ compressionLevel: 9, palette: true, quality: 90 }).toBuffer()),
    write(path.join(IMAGES_DIR, 'og-image.jpg'), await img.clone().jpeg({ quality: 82, mozjpeg: true }).toBuffer()),
  ]);
}

/**
 * favicon.ico holding 16 and 32 px PNGs (PNG-in-ICO is supported by every
 * current browser); browsers still request /favicon.ico by default.
 */
function buildIco(pngs: { size: number; data: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * pngs.length);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(pngs.length, 4);
  let offset = header.length;
  pngs.forEach(({ size, data }, i) => {
    const e = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, e);
    header.writeUInt8(size >= 256 ? 0 : size, e + 1);
    header.writeUInt8(0, e + 2); // no palette
    header.writeUInt8(0, e + 3);
    header.writeUInt16LE(1, e + 4); // colour planes
    header.writeUInt16LE(32, e + 6); // bits per pixel
    header.writeUInt32LE(data.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...pngs.map((p) => p.data)]);
}

async function renderFavicons(): Promise<Written[]> {
  const png = (size: number, fullBleed = false) => {
    // The touch icon is square and padded: iOS rounds its corners for us.
    const img = sharp(Buffer.from(faviconSvg(fullBleed ? { fullBleed, inset: 0.12 } : {}, size)));
    // The touch icon must be opaque: iOS fills transparency with black.
    return (fullBleed ? img.flatten({ background: PALETTE.navy }) : img).png({ compressionLevel: 9 }).toBuffer();
  };
  const [p16, p32, p180, p192, p512] = await Promise.all([png(16), png(32), png(180, true), png(192), png(512)]);
  return Promise.all([
    write(path.join(PUBLIC_DIR, 'favicon.svg'), faviconSvg() + '\n'),
    write(path.join(PUBLIC_DIR, 'favicon-16.png'), p16),
    write(path.join(PUBLIC_DIR, 'favicon-32.png'), p32),
    write(path.join(PUBLIC_DIR, 'apple-touch-icon.png'), p180),
    write(path.join(PUBLIC_DIR, 'icon-192.png'), p192),
    write(path.join(PUBLIC_DIR, 'icon-512.png'), p512),
    write(path.join(PUBLIC_DIR, 'favicon.ico'), buildIco([{ size: 16, data: p16 }, { size: 32, data: p32 }])),
  ]);
}

/* -------------------------------------------------------------------------- */
/* Typed data file                                                             */
/* -------------------------------------------------------------------------- */

function dataFile(): string {
  const variants = (spec: ResponsiveSpec, format: Format) =>
    spec.widths
      .map((w) => `      { width: ${w}, src: '/images/${spec.name}-${w}.${EXT[format]}' },`)
      .join('\n');
  const entries = RESPONSIVE.map((spec) => {
    const width = Math.max(...spec.widths);
    const height = Math.round((width * spec.viewH) / spec.viewW);
    return [
      // Quote only the keys that need it ('check-auctions', 'ebook-1', ...).
      `  ${/^[a-z]+$/i.test(spec.name) ? spec.name : `'${spec.name}'`}: {`,
      `    width: ${width},`,
      `    height: ${height},`,
      `    avif: [\n${variants(spec, 'avif')}\n    ],`,
      `    webp: [\n${variants(spec, 'webp')}\n    ],`,
      `    jpeg: [\n${variants(spec, 'jpeg')}\n    ],`,
      `  },`,
    ].join('\n');
  }).join('\n');
  return `// Generated by scripts/make-images.ts. Do not edit by hand:
// change the script and run \`npx tsx scripts/make-images.ts\`.

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

export const ogImage = { src: '/images/og-image.png', width: 1200, height: 630, type: 'image/png' } as const;
`;
}

/* -------------------------------------------------------------------------- */
/* Main                                                                        */
/* -------------------------------------------------------------------------- */

async function main(): Promise<void> {
  const started = Date.now();
  await mkdir(IMAGES_DIR, { recursive: true });
  const results = await Promise.all([...RESPONSIVE.map(renderResponsive), renderOg(), renderFavicons()]);
  const written = results.flat();
  written.push(await write(DATA_FILE, dataFile()));

  // Size report for the AVIF each page actually shows at 1x.
  const sizes = new Map(written.map((w) => [w.file, w.bytes]));
  let problems = 0;
  console.log('AVIF at display width:');
  for (const spec of RESPONSIVE) {
    const bytes = sizes.get(`public/images/${spec.name}-${spec.displayWidth}.avif`) ?? 0;
    const flag = bytes > spec.budget ? `  <-- over the ${spec.budget / 1000} KB budget` : '';
    if (flag) problems++;
    console.log(
      `  ${spec.name.padEnd(15)} ${String(spec.displayWidth).padStart(4)}w  ${String(bytes).padStart(6)} B${flag}`,
    );
  }
  console.log(`Wrote ${written.length} files in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  if (problems) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
