/** One record of a CSV file: its fields, and the line of the file it starts on (1 is the header). */
export interface CsvRecord {
  line: number;
  fields: string[];
  /** Why the record cannot be read as it stands; its fields are then incomplete. */
  error?: string;
}

/**
 * Reads CSV as RFC 4180 writes it, and as the networks' exports do: fields separated by the delimiter,
 * records by CRLF, LF or CR; a field in double quotes may hold the delimiter, line breaks and doubled
 * quotes (""). A quote inside an unquoted field is kept as it is, as spreadsheets do. A byte-order mark
 * is dropped and blank lines are skipped. A quoted field that is never closed ends the file: the
 * record it began is returned with an error, since no later line can be told apart from its content.
 */
export function parseCsvRecords(text: string, delimiter = ','): CsvRecord[] {
  const records: CsvRecord[] = [];
  const input = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let line = 1;
  let index = 0;
  while (index < input.length) {
    const record: CsvRecord = { line, fields: [] };
    let field = '';
    let atRecordEnd = false;
    while (!atRecordEnd) {
      if (input[index] === '"' && field === '') {
        // A quoted field: read to its closing quote, line breaks and "" included.
        index += 1;
        let closed = false;
        while (index < input.length) {
          const char = input[index]!;
          if (char === '"' && input[index + 1] === '"') {
            field += '"';
            index += 2;
          } else if (char === '"') {
            closed = true;
            index += 1;
            break;
          } else {
            if (char === '\n' || (char === '\r' && input[index + 1] !== '\n')) line += 1;
            field += char;
            index += 1;
          }
        }
        if (!closed) {
          record.error ??= 'a quoted field is never closed: the rest of the file is inside it';
          record.fields.push(field);
          records.push(record);
          return records;
        }
        const next = input[index];
        if (next !== undefined && next !== delimiter && next !== '\r' && next !== '\n') {
          record.error ??= `a quoted field must be followed by "${delimiter}" or the end of the line`;
        }
      }
      const char = input[index];
      if (char === undefined) {
        record.fields.push(field);
        atRecordEnd = true;
      } else if (char === delimiter) {
        record.fields.push(field);
        field = '';
        index += 1;
      } else if (char === '\r' || char === '\n') {
        record.fields.push(field);
        index += char === '\r' && input[index + 1] === '\n' ? 2 : 1;
        line += 1;
        atRecordEnd = true;
      } else {
        field += char;
        index += 1;
      }
    }
    const blank = record.fields.length === 1 && record.fields[0] === '' && !record.error;
    if (!blank) records.push(record);
  }
  return records;
}
