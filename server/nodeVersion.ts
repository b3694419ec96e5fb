/**
 * The oldest Node this project runs on, checked before anything else is loaded.
 *
 * better-sqlite3 13 crashes the process (a segmentation fault, no message) when it is loaded by an
 * older Node, so the server and the database scripts import this module FIRST: on an older Node it
 * prints one line naming the version needed and exits 1 before any other module is evaluated.
 * npm scripts never meet that Node on Linux: `npm ci` installs the Node pinned in package.json
 * (optionalDependencies) as node_modules/.bin/node, which npm puts first on PATH for every script.
 * This check is for a Node started by hand (`node dist/server/main.cjs`) or a platform without that package.
 * Keep this file free of imports and of syntax newer than the oldest Node that might run it.
 */

/** Same floor as "engines" in package.json: 22.12 is the first 22.x with require(esm) on by default. */
export const minimumNode = { major: 22, minor: 12 } as const;

/** The line to print when `version` (such as "20.20.2" or "v20.20.2") is too old; undefined when it is fine. */
export function unsupportedNodeMessage(version: string): string | undefined {
  const match = /^v?(\d+)\.(\d+)\./.exec(version.trim());
  const major = match ? Number(match[1]) : 0;
  const minor = match ? Number(match[2]) : 0;
  if (major > minimumNode.major || (major === minimumNode.major && minor >= minimumNode.minor)) return undefined;
  return (
    `auctions-guide: Node ${minimumNode.major}.${minimumNode.minor} or newer is needed; this is Node ${version.trim().replace(/^v/, '')} ` +
    '(npm start and npm test use the Node that npm ci installs on Linux: node_modules/.bin/node)'
  );
}

// On import: refuse an unsupported Node before the importing file's other imports are evaluated.
const refusal = unsupportedNodeMessage(process.versions.node);
if (refusal !== undefined) {
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}
