import type { FunnelReport } from '../funnelReport/funnelReport';
import { sourceName } from '../dayCounts/reportNumbers';
import { otherSourcesName, SourceCells, sourceColumns } from './SourceCells';
import { DaysTable, tableDays } from './tableDays';
import { ColumnHeads } from './ColumnHeads';

/**
 * Each day's top sources (the rest added up), newest first, days without visitors, clicks or conversions left out. The day heads
 * its group of rows (a tbody per day), so the source, not the day, is what begins each row after the first.
 */
export function DailySourceTable({ days }: Pick<FunnelReport, 'days'>) {
  const { shown: active, more } = tableDays(days);
  if (active.length === 0) return null;
  return (
    <DaysTable label="Sources per day" caption="; days with nothing left out" more={more}>
      <ColumnHeads columns={['Day', { label: 'Source', className: 'name' }, ...sourceColumns]} />
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
    </DaysTable>
  );
}
