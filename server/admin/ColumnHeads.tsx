/** A column's heading: its words, or its words and a class (the name columns align left). */
export type ColumnHead = string | { label: string; className: string };

/** A table's head: one row of column headings, each scoped to its column for screen readers. */
export function ColumnHeads({ columns }: { columns: readonly ColumnHead[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) =>
          typeof column === 'string' ? (
            <th key={column} scope="col">
              {column}
            </th>
          ) : (
            <th key={column.label} scope="col" className={column.className}>
              {column.label}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}
