import { createLogger, formatLogRecord, journalPriority, logStyleOf, type LogStyle } from '../../server/lib/logger';

const time = new Date('2026-11-28T21:40:00.000Z');
const text: LogStyle = { format: 'text', journal: false };
const journal: LogStyle = { format: 'text', journal: true };
const json: LogStyle = { format: 'json', journal: false };

/** A logger writing into arrays, at a fixed time. */
function kept(style: LogStyle) {
  const out: string[] = [];
  const err: string[] = [];
  const logger = createLogger(style, { out: (line) => void out.push(line), err: (line) => void err.push(line), now: () => time });
  return { logger, out, err };
}

describe('formatLogRecord', () => {
  it('writes information as the bare line and warnings and errors with their time and level, on a terminal', () => {
    expect(formatLogRecord({ time, level: 'info', message: 'Auctions Guide is listening' }, text)).toBe('Auctions Guide is listening\n');
    expect(formatLogRecord({ time, level: 'warning', message: 'AFFILIATE_URL is not set' }, text)).toBe('2026-11-28T21:40:00.000Z WARNING AFFILIATE_URL is not set\n');
    expect(formatLogRecord({ time, level: 'error', message: 'closing failed', detail: 'Error: gone' }, text)).toBe('2026-11-28T21:40:00.000Z ERROR closing failed Error: gone\n');
  });

  it('puts the sd-daemon priority before every line under journald, a stack\'s lines too', () => {
    expect(journalPriority).toEqual({ error: 3, warning: 4, info: 6 });
    expect(formatLogRecord({ time, level: 'info', message: 'listening' }, journal)).toBe('<6>listening\n');
    expect(formatLogRecord({ time, level: 'warning', message: 'sample address' }, journal)).toBe('<4>2026-11-28T21:40:00.000Z WARNING sample address\n');
    const stack = formatLogRecord({ time, level: 'error', message: 'failed', detail: 'Error: x\n    at a (b.ts:1:1)\n    at c (d.ts:2:2)' }, journal);
    expect(stack.split('\n')).toEqual(['<3>2026-11-28T21:40:00.000Z ERROR failed Error: x', '<3>    at a (b.ts:1:1)', '<3>    at c (d.ts:2:2)', '']);
  });

  it('writes start-up\'s plain refusal without time and level, with its priority under journald', () => {
    expect(formatLogRecord({ time, level: 'error', message: 'auctions-guide: PORT must be…', plain: true }, text)).toBe('auctions-guide: PORT must be…\n');
    expect(formatLogRecord({ time, level: 'error', message: 'auctions-guide: PORT must be…', plain: true }, journal)).toBe('<3>auctions-guide: PORT must be…\n');
  });

  it('writes one JSON object per line with time, level, message and fields, the error among the fields', () => {
    const line = formatLogRecord({ time, level: 'error', message: 'two\nlines', fields: { path: '/' }, detail: 'Error: x\n    at a' }, json);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({ time: '2026-11-28T21:40:00.000Z', level: 'error', message: 'two\nlines', fields: { path: '/', error: 'Error: x\n    at a' } });
    expect(JSON.parse(formatLogRecord({ time, level: 'info', message: 'hi' }, json))).toEqual({ time: '2026-11-28T21:40:00.000Z', level: 'info', message: 'hi' });
  });

  it('prefixes JSON too under journald, so journalctl -p sorts it', () => {
    const line = formatLogRecord({ time, level: 'warning', message: 'w' }, { format: 'json', journal: true });
    expect(line.startsWith('<4>{')).toBe(true);
    expect(JSON.parse(line.slice(3))).toMatchObject({ level: 'warning', message: 'w' });
  });
});

describe('createLogger', () => {
  it('writes information to stdout and warnings and errors to stderr', () => {
    const { logger, out, err } = kept(text);
    logger.info('one');
    logger.warning('two');
    logger.error('three', new Error('boom'));
    logger.error('four', 'a string');
    expect(out).toEqual(['one\n']);
    expect(err[0]).toBe('2026-11-28T21:40:00.000Z WARNING two\n');
    expect(err[1]).toMatch(/^2026-11-28T21:40:00\.000Z ERROR three Error: boom\n {4}at /);
    expect(err[2]).toBe('2026-11-28T21:40:00.000Z ERROR four a string\n');
  });

  it('keeps a line\'s fields in JSON', () => {
    const { logger, out } = kept(json);
    logger.info('GET / 200', { method: 'GET', status: 200 });
    expect(JSON.parse(out[0]!)).toEqual({ time: '2026-11-28T21:40:00.000Z', level: 'info', message: 'GET / 200', fields: { method: 'GET', status: 200 } });
  });
});

describe('logStyleOf', () => {
  it('turns the priority prefix on when systemd set JOURNAL_STREAM', () => {
    expect(logStyleOf('text', { JOURNAL_STREAM: '8:123456' })).toEqual({ format: 'text', journal: true });
    expect(logStyleOf('json', {})).toEqual({ format: 'json', journal: false });
  });
});
