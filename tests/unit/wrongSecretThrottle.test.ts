import { createWrongSecretThrottle, defaultMaxAddresses } from '../../server/limits/wrongSecretThrottle';
import { flood, msPerKey } from '../support/keyFlood';

/** The throttle as the admin gate and /api/conversions make it, driven by a flood of distinct addresses. */
describe('the bound of the wrong-secret throttle', () => {
  it(`holds at most ${defaultMaxAddresses.toLocaleString('en')} addresses in a wrong-secret throttle (/admin, /api/conversions), through ${flood.toLocaleString('en')} distinct ones`, () => {
    let clock = 0;
    const throttle = createWrongSecretThrottle({ now: () => clock });
    let largest = 0;
    for (let i = 0; i < flood; i += 1) {
      clock = i * msPerKey;
      throttle.fail(`2001:db8:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::/64`);
      largest = Math.max(largest, throttle.size);
    }
    expect(largest).toBe(defaultMaxAddresses);
  });
});
