/**
 * Checks that the affiliate address (AFFILIATE_URL, or --url) still leads to a page:
 *   npx tsx scripts/check-link.ts [--url URL] [--timeout MS]
 * Exit codes: 0 works (or the partner refused a robot), 1 broken or bad environment, 2 no clear answer, 64 bad arguments.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/config';
import { checkLink, describeLinkCheck, describeStatus, type LinkCheckResult } from '../server/linkHealth/checkLink';

const usage = 'usage: npm run check-link -- [--url URL] [--timeout MS]';
const exitCodeHelp = 'Exit codes: 0 works (or the partner refused a robot), 1 broken or bad environment, 2 no clear answer, 64 bad arguments.';

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

const consoleOutput: Output = { out: (line) => console.log(line), err: (line) => console.error(line) };

/** Returns the exit code rather than exiting, so tests can run it in-process. */
export async function main(argv: string[], env: Record<string, string | undefined>, output: Output = consoleOutput): Promise<number> {
  const badArguments = (problem: string) => {
    output.err(`check-link: ${problem}`);
    output.err(usage);
    return 64;
  };

  let values: { url?: string; timeout?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ args: argv, options: { url: { type: 'string' }, timeout: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (error) {
    return badArguments((error as Error).message);
  }
  if (values.help) {
    output.out(`${usage}\n${exitCodeHelp}`);
    return 0;
  }

  const timeout = values.timeout;
  if (timeout !== undefined && (!/^\d+$/.test(timeout) || Number(timeout) < 1 || Number(timeout) > 600_000)) {
    return badArguments(`--timeout must be a whole number of milliseconds from 1 to 600000, got "${timeout}"`);
  }
  if (values.url !== undefined && !isHttpUrl(values.url)) {
    return badArguments(`--url must be an http:// or https:// address, got "${values.url}"`);
  }

  let url = values.url;
  // The environment only matters when it names the address; a bad AFFILIATE_URL should not block checking another.
  if (url === undefined) {
    try {
      url = loadConfig(env).affiliateUrl;
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      output.err(`check-link: ${error.message}`);
      return 1;
    }
  }

  output.out(`Checking ${url}`);
  const result = await checkLink(url, timeout === undefined ? {} : { timeoutMs: Number(timeout) });
  output.out(describeLinkCheck(result));
  output.out(explain(result, values.url === undefined));
  return exitCodes[result.verdict];
}

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol);
}

const exitCodes = { ok: 0, blocked: 0, broken: 1, error: 2 } as const;

function explain(result: LinkCheckResult, fromConfig: boolean): string {
  const subject = fromConfig ? 'The affiliate link' : 'The link';
  const answered = result.status === undefined ? result.error : describeStatus(result.status);
  const fix = fromConfig ? 'Get a current link from the affiliate network and set AFFILIATE_URL.' : 'Get a current link from the affiliate network.';
  switch (result.verdict) {
    case 'ok':
      return `${subject} works.`;
    case 'broken':
      return `${subject} looks broken (${answered}): the partner site says the page is not there. ${fix}`;
    case 'blocked':
      return `The partner site refused the check (${answered}): this is common for automated requests and does not mean the link is broken.`;
    case 'error':
      return result.status === undefined
        ? `No answer from the partner site (${answered}): check the address and the network, then try again.`
        : `The partner site answered with an error (${answered}): try again later, and open the link in a browser if it persists.`;
  }
}

if (require.main === module) {
  void main(process.argv.slice(2), process.env).then((code) => {
    process.exitCode = code;
  });
}
