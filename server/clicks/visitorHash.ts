import { createHmac, randomBytes } from 'node:crypto';
import { utcDay } from './utcDay';

/**
 * Makes the visitor hash used for unique counts: an HMAC of IP address and user agent under a random
 * salt that lives only in this process's memory and is replaced at each UTC midnight. The same visitor
 * hashes the same within a day; across days, across restarts, and from the database alone, the hashes
 * cannot be linked back to a person or to each other.
 */
export function createVisitorHasher(now: () => Date = () => new Date()): (ip: string, userAgent: string) => string {
  let saltDay = '';
  let salt = Buffer.alloc(0);
  return (ip, userAgent) => {
    const today = utcDay(now());
    if (today !== saltDay) {
      saltDay = today;
      salt = randomBytes(32);
    }
    // 128 bits: collisions between a day's visitors are out of the question, and nothing longer is needed.
    return createHmac('sha256', salt).update(ip).update('\n').update(userAgent).digest('base64url').slice(0, 22);
  };
}
