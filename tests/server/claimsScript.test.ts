import { main } from '../../scripts/claims';
import { runScript } from '../support/scriptProcess';
import { merchantAnswersFromExamples, merchantPagesFromExamples, withEtag } from '../support/claimsMerchant';
import { commandTestDatabase } from '../support/commandTestDatabase';
import { engines } from '../support/engines';
import { useTempDir } from '../support/tempDir';
import { startTestMerchant, type TestMerchant } from '../support/testMerchant';
import { claimList } from '../../shared/content/claims';

async function run(argv: string[], env: Record<string, string | undefined>) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, env, (text) => (stdout += text), (text) => (stderr += text));
  return { code, stdout, stderr };
}

describe.each(engines)('npm run claims (%s)', (engine) => {
  const temp = useTempDir();
  let merchant: TestMerchant;
  let database: Awaited<ReturnType<typeof commandTestDatabase>>;

  beforeEach(async () => {
    merchant = await startTestMerchant(merchantAnswersFromExamples());
    database = await commandTestDatabase(engine, temp.dir());
  });
  afterEach(async () => {
    await database.close();
    await merchant.close();
  });

  const env = () => ({ ...database.env, MERCHANT_URL: merchant.origin });

  it('--check --json checks now and shows every verdict with its evidence and example: exit 0 when all are verified', async () => {
    const { code, stdout } = await run(['--check', '--json'], env());
    expect(code).toBe(0);
    const shown = JSON.parse(stdout) as { id: string; verdict: string; evidence: { example: string; outcome: { verdict: string } }[] }[];
    expect(shown.map((claim) => [claim.id, claim.verdict])).toEqual(claimList.map((claim) => [claim.id, 'verified']));
    expect(shown[0]!.evidence[0]).toMatchObject({ example: claimList[0]!.evidence[0].example, outcome: { verdict: 'verified' } });
  });

  it('exits 1 with a contradicted claim, and 2 with none contradicted but one unknown', async () => {
    const refund = merchantPagesFromExamples()['/refund-policy']!;
    merchant.answers.set('/refund-policy', withEtag(refund.replace('60-day', '30-day')));
    const contradicted = await run(['--check'], env());
    expect(contradicted.code).toBe(1);
    expect(contradicted.stdout).toMatch(/refundWindow\s+contradicted/);
    merchant.answers.set('/refund-policy', { status: 403, body: 'no' });
    expect((await run(['--check'], env())).code).toBe(2);
  });

  it('without --check shows what was last recorded: all unknown before any check', async () => {
    const { code, stdout } = await run([], env());
    expect(code).toBe(2);
    expect(stdout).toMatch(/refundWindow\s+unknown\s+never checked/);
  });
});

describe('npm run claims, its arguments', () => {
  it('answers 64 to an unknown argument and 0 to --help, as a process', async () => {
    const bad = await runScript('scripts/claims.ts', ['--frobnicate']);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('usage: npm run claims');
    const help = await runScript('scripts/claims.ts', ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--check');
  });
});
