import type { TextBlock } from '../content/types';

/** Paragraphs and bullet lists from content data, in order. */
export function Prose({ blocks }: { blocks: TextBlock[] }) {
  return (
    <>
      {blocks.map((block, index) =>
        block.kind === 'paragraph' ? (
          <p key={index}>{block.text}</p>
        ) : (
          <ul key={index}>
            {block.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        ),
      )}
    </>
  );
}
