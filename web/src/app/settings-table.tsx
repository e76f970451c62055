import { da } from '@bosted/domain/messages/da'
import { type ReactNode, useState } from 'react'
import { SearchField } from '../components/ui/search-field.tsx'
import { SkippedNotice } from '../components/ui/skipped-notice.tsx'
import { TableScroll } from '../components/ui/table-scroll.tsx'
import { matchesSearch } from '../features/location-settings/search.ts'
import { sortByName } from '../features/persons/person-name.ts'
import type { Parsed, RecordKind } from '../lib/parse-records.ts'

type Listed = Parameters<typeof matchesSearch>[0] & { id: string }

type Props<T extends Listed> = {
  /** What the list holds, for the notice about records left out. */
  kind: RecordKind
  /** The table's accessible name. */
  label: string
  list: Parsed<T>
  /** The header row's cells. */
  columns: ReactNode
  /** One `<tr>` per shown entry. */
  row: (entry: T) => ReactNode
}

/**
 * A settings list (Borgere, Brugere): the notice about records left out, the search field, and the
 * entries that match it sorted by name in a scrollable table, or "no match".
 */
export function SettingsTable<T extends Listed>({ kind, label, list, columns, row }: Props<T>) {
  const [search, setSearch] = useState('')
  const shown = sortByName(list.items.filter((entry) => matchesSearch(entry, search)))
  return (
    <>
      <SkippedNotice kind={kind} count={list.skipped} />
      <SearchField label={da.settingsList.search} value={search} onChange={setSearch} className="settings-search" />
      {shown.length === 0 ? (
        <p className="muted">{da.settingsList.noMatch}</p>
      ) : (
        <TableScroll label={label}>
          <table>
            <thead>
              <tr>{columns}</tr>
            </thead>
            <tbody>{shown.map(row)}</tbody>
          </table>
        </TableScroll>
      )}
    </>
  )
}

/** Whether an entry can sign in: "Aktiv" or "Deaktiveret". */
export function SignInBadge({ disabled }: { disabled: boolean }) {
  return disabled ? (
    <span className="badge badge--missing">{da.settingsList.disabled}</span>
  ) : (
    <span className="badge badge--ok">{da.settingsList.active}</span>
  )
}
