import { useEffect, useId, useReducer, useRef, useState, type FocusEvent } from 'react';
import type { ReviewsCopy } from '../../content/home';
import type { GeneratedImage } from '../../content/images.generated';
import { ResolvedPicture } from '../../images/Picture';
import { clientAttributes } from '../clientAttributes';
import { carouselReducer, initialCarouselState, isLocked, isRotating, nextWakeAt } from './carouselState';

export interface ReviewCarouselProps {
  /**
   * The reviews copy with each slide's image already looked up: the island's props carry its own six
   * images, so its chunk imports neither the copy nor the table of every image.
   */
  reviews: Omit<ReviewsCopy, 'slides'> & { slides: { image: GeneratedImage; alt: string }[] };
}

/** matchMedia is everywhere that runs this island; the guard keeps server rendering safe. */
function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Whether a mouse pointer already rests on the reviews area, which no pointerenter will ever say: the
 * island hydrated under a pointer that got there first. `:hover` alone cannot say it: a phone keeps it on
 * whatever was last tapped, and touch never sends the mouse pointerleave that would end the hold. So the
 * pointer the visitor actually used decides (the entry keeps its type on <html>, see client/pointerUsed.ts),
 * not what the device says of its main pointer: a tablet or touch laptop used with a mouse answers
 * `(hover: none)` while its mouse rests here. Only when no pointer has been seen since the page started
 * (a mouse that rested here from the first paint) does the media feature answer: any pointer that can hover.
 */
function pointerRestsOn(element: HTMLElement): boolean {
  if (!element.matches(':hover')) return false;
  const used = document.documentElement.getAttribute(clientAttributes.pointerUsed);
  if (used) return used === 'mouse';
  return typeof matchMedia === 'function' && matchMedia('(any-hover: hover)').matches;
}

/** Whether keyboard focus is already inside, by the focus handler's rule: only keyboard focus holds. */
function keyboardFocusIn(element: HTMLElement): boolean {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || !element.contains(active)) return false;
  try {
    return active.matches(':focus-visible');
  } catch {
    // :focus-visible is Chrome 86, Firefox 85, Safari 15.4; before them, any focus inside holds it.
    return true;
  }
}

/** Previous or next: one button but for its direction, label and action. */
function ArrowButton(props: { direction: 'previous' | 'next'; label: string; controls: string; locked: boolean; onPress: () => void }) {
  return (
    <button
      type="button"
      className={`carousel__arrow carousel__arrow--${props.direction}`}
      aria-label={props.label}
      aria-controls={props.controls}
      aria-disabled={props.locked}
      onClick={props.onPress}
    />
  );
}

/** When the carousel hydrates unless a page says otherwise: as it nears the viewport (its first slide shows without JavaScript). */
export const defaultLoad = 'visible';

/**
 * The reviews area: heading, honest intro and the rotating carousel of six sample review images.
 * It follows the WAI-ARIA carousel pattern: a Pause/Play button first, labelled slides, a polite live
 * region only while rotation is off. Without JavaScript the first image shows.
 */
export default function ReviewCarousel({ reviews }: ReviewCarouselProps) {
  const slideLabel = (n: number) => reviews.slideLabel.replace('{n}', String(n)).replace('{total}', String(reviews.slides.length));
  const slidesId = useId();
  const [state, dispatch] = useReducer(carouselReducer, reviews.slides.length, initialCarouselState);
  // Set by the wake timer, so the lock (and aria-disabled) lifts when the fade ends.
  const [now, setNow] = useState(0);
  const areaRef = useRef<HTMLDivElement>(null);
  const carouselRef = useRef<HTMLElement>(null);

  useEffect(() => {
    // The island hydrates as it nears the viewport, maybe under a pointer or around focus that got there first.
    const hovering = areaRef.current !== null && pointerRestsOn(areaRef.current);
    const focused = carouselRef.current !== null && keyboardFocusIn(carouselRef.current);
    dispatch({ type: 'start', now: performance.now(), reducedMotion: prefersReducedMotion(), hovering, focused });
  }, []);

  // One timer for the next moment anything changes by itself. It depends on `now` too: a wake-up that
  // only lifts the fade lock leaves the state as it was, and the following wake-up must still be set.
  useEffect(() => {
    const current = performance.now();
    const wake = nextWakeAt(state, current);
    if (wake === null) return;
    const timer = setTimeout(
      () => {
        const at = performance.now();
        setNow(at);
        dispatch({ type: 'tick', now: at });
      },
      // Timers may fire a fraction of a millisecond early by performance.now(); 1 ms more keeps us past the deadline.
      Math.max(0, wake - current) + 1,
    );
    return () => clearTimeout(timer);
  }, [state, now]);

  const locked = isLocked(state, Math.max(now, performance.now()));
  const rotating = isRotating(state);
  const playing = state.started && !state.stopped;

  const onFocus = (event: FocusEvent) => {
    // Only keyboard focus holds rotation: a mouse click also focuses a button, and that must not pause it for good.
    if ((event.target as HTMLElement).matches(':focus-visible')) dispatch({ type: 'focus', on: true, now: performance.now() });
  };
  const onBlur = (event: FocusEvent) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) dispatch({ type: 'focus', on: false, now: performance.now() });
  };

  return (
    <div
      ref={areaRef}
      id="reviews"
      className="reviews"
      onPointerEnter={(event) => event.pointerType === 'mouse' && dispatch({ type: 'hover', on: true, now: performance.now() })}
      onPointerLeave={(event) => event.pointerType === 'mouse' && dispatch({ type: 'hover', on: false, now: performance.now() })}
    >
      <h3 className="reviews__heading">{reviews.heading}</h3>
      <p className="reviews__intro">{reviews.intro}</p>
      <section
        ref={carouselRef}
        className="carousel"
        aria-roledescription="carousel"
        aria-label={reviews.regionLabel}
        data-rotating={rotating}
        data-index={state.index}
        onFocus={onFocus}
        onBlur={onBlur}
      >
        <div id={slidesId} className="carousel__slides" aria-live={rotating ? 'off' : 'polite'} data-fade={state.fadeMs > 0}>
          {reviews.slides.map((slide, index) => (
            <div
              key={slide.image.jpeg[0]?.src ?? index}
              className="carousel__slide"
              role="group"
              aria-roledescription="slide"
              aria-label={slideLabel(index + 1)}
              aria-hidden={index !== state.index}
              data-active={index === state.index}
            >
              <ResolvedPicture image={slide.image} alt={slide.alt} sizes="(min-width: 960px) 560px, calc(100vw - 32px)" />
            </div>
          ))}
        </div>
        {/* Pause/Play comes first in the tab order, as the WAI-ARIA carousel pattern asks. */}
        <div className="carousel__nav">
          <button
            type="button"
            className="carousel__play"
            aria-label={playing ? reviews.pauseLabel : reviews.playLabel}
            data-playing={playing}
            onClick={() => dispatch({ type: 'toggle-play', now: performance.now() })}
          >
            <span className="carousel__play-icon" aria-hidden="true" />
          </button>
          <ArrowButton
            direction="previous"
            label={reviews.previousLabel}
            controls={slidesId}
            locked={locked}
            onPress={() => dispatch({ type: 'previous', now: performance.now() })}
          />
          <div className="carousel__dots">
            {reviews.slides.map((_slide, index) => (
              <button
                key={index}
                type="button"
                className="carousel__dot"
                aria-label={slideLabel(index + 1)}
                aria-controls={slidesId}
                aria-current={index === state.index ? 'true' : undefined}
                aria-disabled={locked}
                onClick={() => dispatch({ type: 'go', index, now: performance.now() })}
              />
            ))}
          </div>
          <ArrowButton
            direction="next"
            label={reviews.nextLabel}
            controls={slidesId}
            locked={locked}
            onPress={() => dispatch({ type: 'next', now: performance.now() })}
          />
        </div>
      </section>
    </div>
  );
}
