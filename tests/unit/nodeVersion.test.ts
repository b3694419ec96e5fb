import { unsupportedNodeMessage } from '../../server/nodeVersion';

/** What the refusal says after the version found: where the Node that npm scripts use comes from. */
const pinnedNodeHint = '(npm start and npm test use the Node that npm ci installs on Linux: node_modules/.bin/node)';

describe('unsupportedNodeMessage', () => {
  it.each(['20.20.2', '22.11.0'])('refuses Node %s with one line naming the version needed, the version found and the pinned Node', (version) => {
    expect(unsupportedNodeMessage(version)).toBe(`auctions-guide: Node 22.12 or newer is needed; this is Node ${version} ${pinnedNodeHint}`);
  });

  it.each(['22.12.0', '24.21.0', '26.0.0'])('accepts Node %s', (version) => {
    expect(unsupportedNodeMessage(version)).toBeUndefined();
  });

  it('reads a version written as process.version writes it, with a leading "v"', () => {
    expect(unsupportedNodeMessage('v24.21.0')).toBeUndefined();
    expect(unsupportedNodeMessage('v18.20.8')).toContain('this is Node 18.20.8 (');
  });

  it('refuses a version it cannot read rather than risk a crash later', () => {
    expect(unsupportedNodeMessage('unknown')).toContain('this is Node unknown (');
  });
});
