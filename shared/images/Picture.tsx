import { generatedImages, type GeneratedImage, type GeneratedImageName, type ImageVariant } from '../content/images.generated';

export interface PictureProps {
  image: GeneratedImageName;
  alt: string;
  /** The sizes attribute: how wide the image is shown at each viewport width. */
  sizes: string;
  /** Above-the-fold images load at once with high priority; everything else loads lazily. */
  priority?: boolean;
  className?: string;
}

export interface ResolvedPictureProps extends Omit<PictureProps, 'image'> {
  /** The image's sizes and files, already looked up (an island carries only its own images in its props). */
  image: GeneratedImage;
}

const srcSet = (variants: readonly ImageVariant[]) => variants.map((variant) => `${variant.src} ${variant.width}w`).join(', ');

/**
 * (Static components and islands both render pictures, so this module lives in neither folder.)
 * An image in AVIF, then WebP, then JPEG for browsers that take neither, at every generated width,
 * with width and height so the browser reserves its box before it loads (no layout shift).
 */
export function ResolvedPicture({ image, alt, sizes, priority = false, className }: ResolvedPictureProps) {
  const { width, height, avif, webp, jpeg } = image;
  const fallback = jpeg.at(-1)!;
  return (
    <picture className={className}>
      <source type="image/avif" srcSet={srcSet(avif)} sizes={sizes} />
      <source type="image/webp" srcSet={srcSet(webp)} sizes={sizes} />
      <img
        src={fallback.src}
        srcSet={srcSet(jpeg)}
        sizes={sizes}
        width={width}
        height={height}
        alt={alt}
        decoding="async"
        loading={priority ? 'eager' : 'lazy'}
        fetchPriority={priority ? 'high' : undefined}
      />
    </picture>
  );
}

/** A generated image by name. */
export function Picture({ image, ...rest }: PictureProps) {
  return <ResolvedPicture image={generatedImages[image]} {...rest} />;
}
