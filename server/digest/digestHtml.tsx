import { renderToStaticMarkup } from 'react-dom/server';
import { cssToStyleAttributes } from './cssToStyleAttributes';
import type { DigestContent } from './digestContent';
import { DigestEmail } from './DigestEmail';
import { digestStylesheet } from './digestStyles';

/** The digest as an HTML document with every style in its elements' style attributes (see cssToStyleAttributes.ts). */
export function digestHtml(content: DigestContent, title: string): string {
  return cssToStyleAttributes(`<!DOCTYPE html>${renderToStaticMarkup(<DigestEmail content={content} title={title} />)}`, digestStylesheet);
}
