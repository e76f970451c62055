/** A cell of a CSV file: text, a number (written with a decimal comma), or nothing. */
export type CsvCell = string | number | null

const BOM = '\uFEFF'

/**
 * A cell as Danish Excel reads it: every field quoted (quotes doubled), numbers with a decimal comma,
 * and text that begins with =, +, - or @ prefixed with ' so Excel never runs it as a formula.
 */
export function csvCell(cell: CsvCell): string {
  if (cell === null) return '""'
  if (typeof cell === 'number') return `"${String(cell).replace('.', ',')}"`
  const guarded = /^[=+\-@]/.test(cell) ? `'${cell}` : cell
  return `"${guarded.replaceAll('"', '""')}"`
}

/** A CSV file for Danish Excel: UTF-8 with BOM, `;` between fields, CRLF between rows. */
export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return `${BOM}${rows.map((row) => row.map(csvCell).join(';')).join('\r\n')}\r\n`
}

/** A file name part from a name: lower case letters and digits, Danish letters kept. */
export function fileSlug(name: string, fallback = 'lokation'): string {
  return (
    name
      .toLocaleLowerCase('da-DK')
      .replace(/[^a-z0-9æøå]+/g, '-')
      .replace(/^-+|-+$/g, '') || fallback
  )
}
