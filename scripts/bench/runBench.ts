import { freePort } from '../../tests/support/mainProcess';
import { startServer, stop } from './benchServer';
import { benchCostsImport } from './costsImport';
import { benchInteractions } from './interactions';
import { benchLighthouse } from './lighthouse';
import { benchMemory } from './memory';
import { benchClicks, benchConversions, benchLeaves, benchViews, withEngines } from './recording';
import { benchScripts } from './scriptsFetched';
import { benchTapTrace } from './tapTrace';
import { benchStartup, benchThroughput } from './serving';
import { benchVolume } from './volume';

/**
 * Runs the parts named (benchParts.ts), or the volume bench with its options. Loaded by scripts/bench.ts only
 * once its arguments are read, so --help and a misspelt part never load Lighthouse, puppeteer and the rest.
 */
export async function runBench(wanted: { parts: string[] } | { volume: string[] }): Promise<void> {
  // Volume runs only when named, alone: it takes many minutes, and the other arguments are its options.
  if ('volume' in wanted) return benchVolume(wanted.volume);
  const wants = (name: string) => wanted.parts.includes(name);
  if (wants('startup')) await benchStartup();
  // Parts 2 to 6 share one built server; the others start what they need themselves.
  const serverParts = ['lighthouse', 'scripts', 'interactions', 'trace', 'throughput', 'clicks', 'views', 'leaves', 'conversions'];
  if (serverParts.some(wants)) await benchOnServer(wants);
  if (wants('memory')) await benchMemory();
  if (wants('costs')) await benchCostsImport();
}

async function benchOnServer(wants: (name: string) => boolean) {
  const port = await freePort();
  const server = await startServer(port);
  try {
    if (wants('lighthouse')) await benchLighthouse(`http://localhost:${port}`);
    if (wants('lighthouse') || wants('scripts')) await benchScripts(`http://localhost:${port}`);
    if (wants('interactions')) await benchInteractions(`http://localhost:${port}`);
    if (wants('trace')) await benchTapTrace(`http://localhost:${port}`);
    if (wants('throughput')) await benchThroughput(`http://127.0.0.1:${port}`);
    const recording = (['clicks', 'views', 'leaves', 'conversions'] as const).filter(wants);
    if (recording.length > 0) {
      await withEngines(`http://127.0.0.1:${port}`, async (engines) => {
        if (wants('clicks')) await benchClicks(engines);
        if (wants('views')) await benchViews(engines);
        if (wants('leaves')) await benchLeaves(engines);
        if (wants('conversions')) await benchConversions(engines);
      });
    }
  } finally {
    await stop(server);
  }
}
