import { unsupportedNodeMessage } from '../../server/nodeVersion';

describe('unsupportedNodeMessage', () => {
  it.each(['20.20.2', '22.11.0'])('refuses Node %s with one line naming the version needed and the version found', (version) => {
    expect(unsupportedNodeMessage(version)).toBe(
      `auctions-guide: Node 22.12 or newer is needed (24 LTS recommended); this is Node ${version}`,
    );
  });

  it.each(['22.12.0', '24.21.0', '26.0.0'])('accepts Node %s', (version) => {
    expect(unsupportedNodeMessage(version)).toBeUndefined();
  });

  it('reads a version written as process.version writes it, with a leading "v"', () => {
    expect(unsupportedNodeMessage('v24.21.0')).toBeUndefined();
    expect(unsupportedNodeMessage('v18.20.8')).toMatch(/this is Node 18\.20\.8$/);
  });

  it('refuses a version it cannot read rather than risk a crash later', () => {
    expect(unsupportedNodeMessage('unknown')).toMatch(/this is Node unknown$/);
  });
});
