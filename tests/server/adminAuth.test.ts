import express from 'express';
import request from 'supertest';
import { requireAdminToken } from '../../server/admin/adminAuth';
import { createTestApp } from '../support/testApp';

const token = 'test-admin-token-0123456789abcdef';
const wrong = 'wrong-token-0123456789abcdef';
const bearer = (value: string) => `Bearer ${value}`;
const basic = (password: string) => `Basic ${Buffer.from(`operator:${password}`).toString('base64')}`;

// TRUST_PROXY=1 makes Express read the client address from X-Forwarded-For, so one test can play several.
const guesser = '203.0.113.7';
const operator = '198.51.100.20';

type App = express.Express;
const adminFrom = (app: App, address: string, authorization?: string) => {
  const pending = request(app).get('/admin').set('X-Forwarded-For', address);
  return authorization ? pending.set('Authorization', authorization) : pending;
};

async function guessWrong(app: App, address: string, times: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await adminFrom(app, address, bearer(wrong))).status);
  return statuses;
}

describe('GET /admin with wrong tokens from one address', () => {
  let app: App;
  beforeEach(async () => {
    // No click database: the throttle is all these tests are about.
    app = await createTestApp({ ADMIN_TOKEN: token, TRUST_PROXY: '1', CLICK_STATS: 'off' });
  });

  it('answers the first 10 wrong tokens 401', async () => {
    expect(await guessWrong(app, guesser, 10)).toEqual(Array(10).fill(401));
  });

  it('answers the 11th 429 with Retry-After: 6', async () => {
    await guessWrong(app, guesser, 10);
    const response = await adminFrom(app, guesser, bearer(wrong)).expect(429);
    expect(response.headers['retry-after']).toBe('6');
  });

  it('keeps the 429 uncached and unindexed, without a sign-in challenge', async () => {
    await guessWrong(app, guesser, 10);
    const response = await adminFrom(app, guesser, basic(wrong)).expect(429);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(response.headers['www-authenticate']).toBeUndefined();
  });

  it('answers the right token 429 too while the address is held back, so a guess learns nothing', async () => {
    await guessWrong(app, guesser, 10);
    await adminFrom(app, guesser, bearer(token)).expect(429);
    await adminFrom(app, guesser, basic(token)).expect(429);
    await adminFrom(app, guesser).expect(429);
  });

  it('lets the right token in from another address at once', async () => {
    await guessWrong(app, guesser, 12);
    await adminFrom(app, operator, basic(token)).expect(200);
  });

  it('still answers 401, not 429, to wrong tokens from another address', async () => {
    await guessWrong(app, guesser, 12);
    await adminFrom(app, operator, bearer(wrong)).expect(401);
  });

  it('holds back an IPv6 guesser by its /64, not by each address in it', async () => {
    for (let i = 1; i <= 10; i++) await adminFrom(app, `2001:db8:5:6::${i.toString(16)}`, bearer(wrong)).expect(401);
    await adminFrom(app, '2001:db8:5:6:ffff::1', bearer(wrong)).expect(429);
    await adminFrom(app, '2001:db8:5:7::1', bearer(token)).expect(200);
  });

  it('does not count visits that offer no token (the browser asking for one)', async () => {
    for (let i = 0; i < 15; i++) await adminFrom(app, guesser).expect(401);
    await adminFrom(app, guesser, bearer(wrong)).expect(401);
  });

  it('does not count the right token', async () => {
    await guessWrong(app, guesser, 9);
    for (let i = 0; i < 5; i++) await adminFrom(app, guesser, bearer(token)).expect(200);
    await adminFrom(app, guesser, bearer(wrong)).expect(401);
    await adminFrom(app, guesser, bearer(wrong)).expect(429);
  });
});

describe('requireAdminToken with an injected clock', () => {
  let clock: number;
  let app: App;
  beforeEach(() => {
    clock = 1_000_000;
    app = express();
    app.set('trust proxy', 1);
    app.get('/admin', requireAdminToken(token, { now: () => clock }), (_req, res) => {
      res.send('admin page');
    });
  });

  it('answers the right token from a held-back address 429 until Retry-After has passed, then 200', async () => {
    await guessWrong(app, guesser, 10);
    const held = await adminFrom(app, guesser, bearer(token)).expect(429);
    const retryAfterMs = Number(held.headers['retry-after']) * 1000;
    clock += retryAfterMs - 1;
    await adminFrom(app, guesser, bearer(token)).expect(429);
    clock += 1;
    await adminFrom(app, guesser, bearer(token)).expect(200);
  });

  it('counts down Retry-After as the clock moves', async () => {
    await guessWrong(app, guesser, 10);
    clock += 2_500;
    const response = await adminFrom(app, guesser, bearer(wrong)).expect(429);
    expect(response.headers['retry-after']).toBe('4');
  });

  it('allows one more wrong try every 6 s after the burst', async () => {
    await guessWrong(app, guesser, 10);
    clock += 6_000;
    expect(await guessWrong(app, guesser, 2)).toEqual([401, 429]);
    clock += 6_000;
    expect(await guessWrong(app, guesser, 2)).toEqual([401, 429]);
  });

  it('does not lengthen the wait for requests refused while held back', async () => {
    await guessWrong(app, guesser, 10);
    for (let second = 0; second < 6; second++) {
      await guessWrong(app, guesser, 5);
      clock += 1_000;
    }
    await adminFrom(app, guesser, bearer(token)).expect(200);
  });

  it('forgives an address fully after a minute', async () => {
    await guessWrong(app, guesser, 10);
    clock += 60_000;
    expect(await guessWrong(app, guesser, 11)).toEqual([...Array(10).fill(401), 429]);
  });
});
