import { formatShown, readShown, type Experiment } from '../../shared/experiments/experiment';

/**
 * A report's variants as stored: those of listed experiments only, formatted ('' for none, also for a
 * page from before an experiment was deleted); undefined when the field is there but not text, which
 * makes the report malformed. What the page showed is what counts, whatever the visitor hash says now.
 */
export function storedVariants(value: unknown, experiments: readonly Experiment[]): string | undefined {
  if (value === undefined || value === '') return '';
  if (typeof value !== 'string') return undefined;
  return formatShown(readShown(value, experiments));
}
