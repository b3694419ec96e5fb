import { useEffect, useState } from 'react';

/**
 * The id of the section the reader is in: the last of the given sections whose top has passed
 * just below the fixed top bar. Scroll events are coalesced to one measurement per frame.
 */
export function useCurrentSection(ids: readonly string[]): string | undefined {
  const [current, setCurrent] = useState<string | undefined>(undefined);
  const key = ids.join(' ');

  useEffect(() => {
    if (ids.length === 0) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const line = topBarHeight() + 16;
      let found: string | undefined;
      for (const id of ids) {
        const element = document.getElementById(id);
        if (element && element.getBoundingClientRect().top <= line) found = id;
      }
      // At the very bottom the last short sections can never reach the line; the last one wins then.
      if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2) found = ids.at(-1) ?? found;
      setCurrent(found ?? ids[0]);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      if (frame) cancelAnimationFrame(frame);
    };
    // The ids are compared by value through their joined key.
  }, [key]);

  return current;
}

function topBarHeight(): number {
  return document.querySelector('.top-bar')?.getBoundingClientRect().height ?? 0;
}
