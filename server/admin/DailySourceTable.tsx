import type { FunnelReport } from '../funnelReport/funnelReport';
import { sourceName } from '../funnelReport/reportNumbers';
import { Caption, ScrollBox } from './ScrollBox';
import { otherSourcesName, SourceCells, sourceColumns } from './SourceCells';
import { maxTableDays, moreDaysNote, tableDays } from './tableDays';

/**
 * Each day's top sources (the rest added up), newest first, days without visitors, clicks or conversions left out. The day heads
 * its group of rows (a tbody per day), so the source, not the day, is what begins each row after the first.
 */
export function DailySourceTable({ report }: { report: FunnelReport }) {
  const { shown: active, more } = tableDays(report, (entry) => entry.sources.length > 0 || entry.otherSources !== undefined);
  if (active.length === 0) return null;
  return (
    <>
    <ScrollBox label="Sources per day">
      <table>
        <Caption>Sources per day (UTC), newest first{more > 0 ? ` (the newest ${maxTableDays})` : ''}; days with nothing left out</Caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col" className="name">
              Source
            </th>
            {sourceColumns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        {active.map((entry) => {
          const rows = [
            ...entry.sources.map((row) => ({ key: row.source, name: sourceName(row.source), row })),
            ...(entry.otherSources ? [{ key: '\u0001others', name: otherSourcesName(entry.otherSources), row: entry.otherSources }] : []),
          ];
          return (
            <tbody key={entry.day}>
              {rows.map(({ key, name, row }, index) => (
                <tr key={key}>
                  {index === 0 && (
                    <th scope="rowgroup" rowSpan={rows.length} className="day">
                      {entry.day}
                    </th>
                  )}
                  <th scope="row" className="name">
                    {name}
                  </th>
                  <SourceCells row={row} />
                </tr>
              ))}
            </tbody>
          );
        })}
      </table>
    </ScrollBox>
    {more > 0 && <p className="muted">{moreDaysNote(more)}</p>}
    </>
  );
}
