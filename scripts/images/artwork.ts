/**
 * What the image pipeline makes: every picture slot of the site, the widths the page uses for it, its
 * byte budgets, and how each format is encoded. The drawings themselves are the files in art/.
 */
import type { SampleReview } from '../../shared/content/sampleReviews';

export type ImageKind = 'hero' | 'check-auctions' | 'ebook' | 'review';
export type Format = 'avif' | 'webp' | 'jpeg';
export const formats: readonly Format[] = ['avif', 'webp', 'jpeg'];
export const extensions: Record<Format, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' };

/** A picture the page shows at several widths: art/<name>.<svg|png|jpg|jpeg|webp> → public/images/<name>-<width>.<ext>. */
export interface ImageSlot {
  name: string;
  kind: ImageKind;
  /** Ascending; the largest is the intrinsic size written into images.generated.ts. */
  widths: number[];
  /** Width : height of the picture. An SVG source must have this shape; a screenshot is fitted onto it. */
  aspect: readonly [number, number];
  /** The largest CSS width the page shows it at: the budgets apply to that file. */
  displayWidth: number;
}

const slot = (name: string, kind: ImageKind, widths: number[], aspect: readonly [number, number], displayWidth: number): ImageSlot => ({
  name,
  kind,
  widths,
  aspect,
  displayWidth,
});

/** Six of each: the bonus eBook covers and the review carousel's cards. */
const sixOf = (prefix: 'ebook' | 'review') => [1, 2, 3, 4, 5, 6].map((n) => `${prefix}-${n}`);

export const siteSlots: ImageSlot[] = [
  slot('hero', 'hero', [400, 560, 800, 1120], [4, 3], 560),
  slot('check-auctions', 'check-auctions', [400, 520, 800, 1040], [4, 3], 520),
  ...sixOf('ebook').map((name) => slot(name, 'ebook', [150, 300], [3, 4], 150)),
  ...sixOf('review').map((name) => slot(name, 'review', [360, 560, 720, 1120], [4, 3], 560)),
];

/**
 * Bytes allowed for the file a 1x screen downloads (the variant at display width), per kind and format.
 * Room is left for a real customer screenshot, which compresses worse than a flat drawing.
 */
export const budgets: Record<ImageKind, Record<Format, number>> = {
  hero: { avif: 40_000, webp: 60_000, jpeg: 90_000 },
  'check-auctions': { avif: 40_000, webp: 60_000, jpeg: 90_000 },
  ebook: { avif: 10_000, webp: 15_000, jpeg: 20_000 },
  review: { avif: 40_000, webp: 60_000, jpeg: 90_000 },
};

/** The link-preview image (Open Graph and Twitter), from art/og-image.svg; PNG is the one pages name. */
export const ogImageSpec = { name: 'og-image', width: 1200, height: 630, budget: 100_000 } as const;

/**
 * The favicons: art/favicon.svg is served as it is (minified) and drawn at 16, 32, 192 and 512 px,
 * 16 and 32 also packed into favicon.ico; art/apple-touch-icon.svg (square, padded: iOS rounds it) at 180 px.
 */
export const iconSpec = { favicon: 'favicon', sizes: [16, 32, 192, 512], icoSizes: [16, 32], touchIcon: 'apple-touch-icon', touchSize: 180 } as const;

/**
 * Encoder settings. Drawings are flat colour and text; screenshots are photos of screens, whose small
 * text needs a little more quality to stay readable.
 */
export const encoders = {
  drawing: { avif: { quality: 50, effort: 4 }, webp: { quality: 72, effort: 5 }, jpeg: { quality: 75, mozjpeg: true } },
  screenshot: { avif: { quality: 55, effort: 4 }, webp: { quality: 78, effort: 5 }, jpeg: { quality: 80, mozjpeg: true } },
  og: { png: { compressionLevel: 9, palette: true, quality: 90 }, jpeg: { quality: 82, mozjpeg: true } },
  icon: { png: { compressionLevel: 9 } },
} as const;

/** Backgrounds: behind a drawing (they are opaque; this only drops the alpha channel), around a fitted screenshot (the page's --off-white), and behind the dark link-preview image and touch icon. */
export const backgrounds = { drawing: '#fafbfc', screenshot: '#f6f8fb', dark: '#0b2545' } as const;

/**
 * The words filled into a sample review card: {{name}}, {{initials}}, {{state}}, {{quote.1}} … {{quote.N}},
 * {{vehicle}}, {{venue}}, {{price}}.
 */
export function reviewFields(review: SampleReview): Record<string, string> {
  const initials = review.name
    .split(/\s+/)
    .map((word) => word.charAt(0))
    .join('');
  const fields: Record<string, string> = { name: review.name, initials, state: review.state, vehicle: review.vehicle, venue: review.venue, price: review.price };
  review.quote.forEach((line, i) => (fields[`quote.${i + 1}`] = line));
  return fields;
}

/** Fields for every review slot, from the sample reviews in shared/content. */
export function sampleReviewFields(reviews: SampleReview[]): Record<string, Record<string, string>> {
  return Object.fromEntries(reviews.map((review, i) => [`review-${i + 1}`, reviewFields(review)]));
}
