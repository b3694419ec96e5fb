import { startMain } from '../support/mainProcess';
import { startListeningMain, stopMain } from '../support/listeningMain';

/** Every line a process wrote, stdout's then stderr's, without the final empty one. */
function linesOf(output: string): string[] {
  return output.split('\n').filter((line, index, all) => index < all.length - 1 || line !== '');
}

/** Starts the built server, asks it for a page and a missing page, stops it with SIGTERM; its output. */
async function runServer(env: Record<string, string>) {
  const server = await startListeningMain(env);
  try {
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    expect((await fetch(`${server.url}/missing`)).status).toBe(404);
  } finally {
    expect(await stopMain(server)).toBe(0);
  }
  return { stdout: linesOf(server.stdout()), stderr: linesOf(server.stderr()) };
}

describe('the built server\'s log lines', () => {
  it('start every line with its sd-daemon priority under systemd (JOURNAL_STREAM set)', async () => {
    const { stdout, stderr } = await runServer({ JOURNAL_STREAM: '8:123456' });
    expect(stdout.length).toBeGreaterThanOrEqual(5);
    for (const line of stdout) expect(line).toMatch(/^<6>\S/);
    for (const line of stderr) expect(line).toMatch(/^<[34]>\S/);
    expect(stdout).toContainEqual(expect.stringMatching(/^<6>Auctions Guide is listening on /));
    expect(stdout).toContainEqual(expect.stringMatching(/^<6>\S+ GET \/missing 404 /));
    expect(stderr).toContainEqual(expect.stringMatching(/^<4>\S+ WARNING AFFILIATE_URL is not set: the buttons point at the sample address/));
    expect(stderr).toContainEqual(expect.stringMatching(/^<4>\S+ WARNING CONTACT_EMAIL is not set/));
  });

  it('keep today\'s lines without JOURNAL_STREAM: bare information, warnings with their time and level', async () => {
    const { stdout, stderr } = await runServer({});
    for (const line of [...stdout, ...stderr]) expect(line).not.toMatch(/^<\d>/);
    expect(stdout).toContainEqual(expect.stringMatching(/^Auctions Guide is listening on /));
    expect(stderr).toContainEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\S+Z WARNING AFFILIATE_URL is not set/));
  });

  it('are one JSON object each with LOG_FORMAT=json, with a level and a message', async () => {
    const { stdout, stderr } = await runServer({ LOG_FORMAT: 'json' });
    const records = [...stdout, ...stderr].map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.length).toBeGreaterThanOrEqual(7);
    for (const record of records) {
      expect(record).toMatchObject({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), level: expect.stringMatching(/^(info|warning|error)$/), message: expect.any(String) });
    }
    expect(records).toContainEqual(expect.objectContaining({ level: 'warning', message: expect.stringMatching(/^AFFILIATE_URL is not set/) }));
    expect(records).toContainEqual(expect.objectContaining({ level: 'info', fields: expect.objectContaining({ method: 'GET', path: '/missing', status: 404 }) }));
  });

  it('give start-up\'s refusal its error priority under systemd, and as JSON with LOG_FORMAT=json', async () => {
    const journal = startMain({ JOURNAL_STREAM: '8:123456', PORT: 'http' });
    expect(await journal.exit).toBe(1);
    expect(journal.stderr()).toMatch(/^<3>auctions-guide: PORT must be a whole number from 1 to 65535, got "http"\n$/);
    const json = startMain({ LOG_FORMAT: 'json', PORT: 'http' });
    expect(await json.exit).toBe(1);
    expect(JSON.parse(json.stderr())).toMatchObject({ level: 'error', message: 'auctions-guide: PORT must be a whole number from 1 to 65535, got "http"' });
  });

  it('refuses a LOG_FORMAT it does not know with one line naming it', async () => {
    const started = startMain({ LOG_FORMAT: 'logfmt' });
    expect(await started.exit).toBe(1);
    expect(started.stderr()).toBe('auctions-guide: LOG_FORMAT must be text or json, got "logfmt"\n');
  });
});
