import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { formatShown, isRunning, type Experiment, type ShownVariant } from '../../shared/experiments/experiment';
import { isBot, isPrefetch, optsOut } from '../beacons/requestKind';
import type { VisitorHasher } from '../beacons/visitorSalts';

/**
 * A visitor's variant of each running experiment, from the daily visitor hash (server/beacons/visitorSalts.ts):
 * the same on every reload, page and instance during a UTC day, with no cookie and nothing stored, and
 * drawn anew the next day, when the visitor counts as a new visitor-day anyway. Each experiment hashes
 * the visitor with its own id, so being in b of one says nothing of another.
 */
export function assignVariants(visitor: string, experiments: readonly Experiment[]): ShownVariant[] {
  return experiments.filter(isRunning).map((experiment) => {
    const digest = createHash('sha256').update(visitor).update('\n').update(experiment.id).digest();
    // 32 bits are plenty to split traffic in proportion to weights of any sensible size.
    let point = (digest.readUInt32BE(0) / 2 ** 32) * experiment.variants.reduce((sum, variant) => sum + (variant.weight ?? 1), 0);
    const variant = experiment.variants.find((candidate) => (point -= candidate.weight ?? 1) < 0) ?? experiment.variants[experiment.variants.length - 1]!;
    return { experiment: experiment.id, variant: variant.id };
  });
}

/**
 * The key (formatShown) of the home page a request gets, or '' for the page outside every experiment:
 * what bots, prefetches, visitors sending Global Privacy Control or Do Not Track get, and anyone while
 * the visitor hash cannot be made (the database is down and today's salt was never read), since a
 * visitor the site cannot count cannot be in a test either.
 */
export async function homeVariantKey(req: Request, experiments: readonly Experiment[], hashVisitor: VisitorHasher): Promise<string> {
  const userAgent = req.get('user-agent') ?? '';
  if (isBot(userAgent) || isPrefetch(req.headers) || optsOut(req.headers)) return '';
  try {
    return formatShown(assignVariants(await hashVisitor(req.ip ?? '', userAgent), experiments));
  } catch {
    return '';
  }
}
