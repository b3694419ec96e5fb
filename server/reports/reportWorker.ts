/**
 * The worker thread that reads reports and renders /admin (see reportReader.ts). better-sqlite3 runs
 * every query synchronously, and a report's rows are summed and its page rendered in JavaScript: in the
 * serving thread each would hold up every page for as long as it takes; here it holds up only this thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SlowReportError } from '../funnelReport/slowReport';
import { errorCode } from '../lib/errorText';
import { openReportDatabase } from './reportDatabase';
import { inProcessReportReader, type ReportRequest, type ReportResponse, type ReportWorkerData } from './reportReader';

const { settings, timeoutMs } = workerData as ReportWorkerData;
const reader = inProcessReportReader(openReportDatabase(settings, timeoutMs), { timeoutMs });

function answer(request: ReportRequest): Promise<unknown> {
  switch (request.kind) {
    case 'funnel':
      return reader.readFunnel(request.range, request.options);
    case 'adminPage':
      return reader.readAdminPage(request.range, request.context);
    case 'digest':
      return reader.readDigest(request.week, request.context);
    case 'rawDay':
      return reader.readRawDay(request.day);
  }
}

parentPort!.on('message', (request: ReportRequest) => {
  answer(request).then(
    (result) => parentPort!.postMessage({ id: request.id, result } satisfies ReportResponse),
    (error: unknown) =>
      parentPort!.postMessage({
        id: request.id,
        error: error instanceof Error ? error.message : String(error),
        code: errorCode(error),
        slow: error instanceof SlowReportError,
      } satisfies ReportResponse),
  );
});
