import { commandProgress, durationText, progressText } from '../../scripts/commandProgress';

/** A progress on a clock the test moves, writing into `written`. */
function progressOn(terminal: boolean, env: Record<string, string> = {}) {
  let now = 0;
  const written: string[] = [];
  const progress = commandProgress('db:copy', 'rows', (text) => written.push(text), env, { terminal, columns: 60, now: () => now });
  return { progress, written, advance: (ms: number) => (now += ms) };
}

describe('commandProgress', () => {
  describe('elsewhere than a terminal (a pipe, a file, journald)', () => {
    it('writes nothing before 10 s have passed, then a whole line at most every 10 s', () => {
      const { progress, written, advance } = progressOn(false);
      advance(9_999);
      progress.update(999, 10_000);
      expect(written).toEqual([]);
      advance(1);
      progress.update(1_000, 10_000);
      advance(5_000);
      progress.update(1_500, 10_000);
      advance(5_000);
      progress.update(2_000, 10_000);
      expect(written).toEqual(['db:copy: 1,000 of 10,000 rows (10%), 100 rows/s, about 1 min 30 s left\n', 'db:copy: 2,000 of 10,000 rows (20%), 100 rows/s, about 1 min 20 s left\n']);
      progress.note('checking');
      progress.end();
      expect(written.slice(2)).toEqual(['db:copy: checking\n']);
    });

    it('says nothing of what comes next in a run too short to have shown progress', () => {
      const { progress, written } = progressOn(false);
      progress.update(1, 2);
      progress.note('checking');
      progress.end();
      expect(written).toEqual([]);
    });

    it('takes its period from PROGRESS_SECONDS, 0 for every update, and names a bad one once', () => {
      const every = progressOn(false, { PROGRESS_SECONDS: '0' });
      every.progress.update(0, 2);
      every.progress.update(1, 2);
      expect(every.written).toEqual(['db:copy: 0 of 2 rows (0%)\n', 'db:copy: 1 of 2 rows (50%)\n']);
      const bad = progressOn(false, { PROGRESS_SECONDS: 'ten' });
      expect(bad.written).toEqual(['db:copy: PROGRESS_SECONDS must be a number of seconds from 0 to 3600, not "ten"; showing progress every 10 s\n']);
    });
  });

  describe('on a terminal', () => {
    it('redraws one line in place at most every 0.1 s, cut to the width, and clears it at the end', () => {
      const { progress, written, advance } = progressOn(true);
      progress.update(0, 10_000_000);
      advance(50);
      progress.update(10, 10_000_000);
      advance(50);
      progress.update(20_000, 10_000_000);
      progress.end();
      expect(written).toEqual([
        '\r\x1b[2Kdb:copy: 0 of 10,000,000 rows (0%)',
        '\r\x1b[2Kdb:copy: 20,000 of 10,000,000 rows (0%), 200,000 rows/s, a…',
        '\r\x1b[2K',
      ]);
      expect(written[1]!.length - '\r\x1b[2K'.length).toBe(59);
    });

    it('says what comes next at once, with no count', () => {
      const { progress, written } = progressOn(true);
      progress.note('checking the copy');
      progress.end();
      expect(written).toEqual(['\r\x1b[2Kdb:copy: checking the copy', '\r\x1b[2K']);
    });

    it('clears nothing when it drew nothing', () => {
      const { progress, written } = progressOn(true);
      progress.end();
      expect(written).toEqual([]);
    });
  });

  it('writes the time left as precisely as a guess deserves', () => {
    expect([0.2, 42, 185, 7_500].map(durationText)).toEqual(['1 s', '42 s', '3 min 5 s', '2 h 5 min']);
    expect(progressText(10, 10, 'pages', 1_000)).toBe('10 of 10 pages (100%), 10 pages/s');
    expect(progressText(0, 0, 'rows', 0)).toBe('0 of 0 rows (100%)');
  });
});
