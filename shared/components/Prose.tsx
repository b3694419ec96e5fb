import { Fragment, type ReactNode } from 'react';
import type { TextBlock } from '../content/types';

/** What `{name}` placeholders in long-form copy stand for on this render (see ProsePage). */
export type ProseSettings = Readonly<Record<string, ReactNode>>;

/** Copy named a setting nothing fills: a content mistake, refused at render (start-up) rather than shown. */
export class UnfilledPlaceholderError extends Error {
  override name = 'UnfilledPlaceholderError';
}

/** The text with each `{name}` replaced by its setting, which may be an element such as a mailto link. */
export function fillPlaceholders(text: string, settings: ProseSettings): ReactNode[] {
  return text.split(/(\{\w+\})/).map((part, index) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name === undefined) return part;
    if (!(name in settings)) throw new UnfilledPlaceholderError(`copy names {${name}}, which no setting fills: "${text.slice(0, 80)}…"`);
    return <Fragment key={index}>{settings[name]}</Fragment>;
  });
}

/** Paragraphs and bullet lists from content data, in order. */
export function Prose({ blocks, settings = {} }: { blocks: TextBlock[]; settings?: ProseSettings }) {
  return (
    <>
      {blocks.map((block, index) =>
        block.kind === 'paragraph' ? (
          <p key={index}>{fillPlaceholders(block.text, settings)}</p>
        ) : (
          <ul key={index}>
            {block.items.map((item) => (
              <li key={item}>{fillPlaceholders(item, settings)}</li>
            ))}
          </ul>
        ),
      )}
    </>
  );
}
