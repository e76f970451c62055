/** A chart's numbers as a table ("Vis som tabel"); the first column heads each row. */
export function DataTable({ caption, head, rows }: { caption: string; head: string[]; rows: (string | number)[][] }) {
  return (
    <table className="data-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {head.map((cell) => (
            <th key={cell} scope="col">
              {cell}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={String(row[0])}>
            {head.map((column, index) =>
              index === 0 ? (
                <th key={column} scope="row">
                  {row[index]}
                </th>
              ) : (
                <td key={column}>{row[index]}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
