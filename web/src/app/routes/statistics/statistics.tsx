import { da } from '@bosted/domain/messages/da'
import { type ReactNode, useMemo } from 'react'
import { useSearchParams } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { Page } from '../../../components/ui/page.tsx'
import { QueryState } from '../../../components/ui/query-state.tsx'
import type { LocationSummary } from '../../../features/locations/locations-store.ts'
import { useActiveLocation } from '../../../features/locations/use-active-location.ts'
import { PeriodFilter } from '../../../features/notes/components/period-filter.tsx'
import { type NotesFilter, notesFilterParams, parseNotesFilter } from '../../../features/notes/notes-filter.ts'
import { useLocationPersons } from '../../../features/persons/api/get-location-persons.ts'
import { personName, sortByName } from '../../../features/persons/person-name.ts'
import { session } from '../../../features/session/session-store.ts'
import { StatisticsReport } from '../../../features/statistics/components/statistics-report.tsx'
import { useStatistics } from '../../../features/statistics/use-statistics.ts'
import { today } from '../../../lib/days.ts'
import { RouteLoading } from '../../layout/route-loading.tsx'

/** Statistik: the active location over a period (URL), key figures, charts, the per-person table, CSV and print. */
export function Component() {
  const { user } = useSnapshot(session)
  const { query: locations, location } = useActiveLocation(user?.locations ?? [])
  const [params, setParams] = useSearchParams()
  const filter = parseNotesFilter(params, today())
  return (
    <Page title={da.pages.statisticsOverview} level={2}>
      <QueryState query={locations} errorMessage={da.statistics.loadFailed} loading={<RouteLoading />}>
        {() =>
          location === null ? (
            <p className="notice">{da.statistics.noLocation}</p>
          ) : (
            <Statistics
              key={location.id}
              location={location as LocationSummary}
              filter={filter}
              onFilter={(next) => setParams(notesFilterParams({ ...next, query: '' }))}
            />
          )
        }
      </QueryState>
    </Page>
  )
}

type Props = { location: LocationSummary; filter: NotesFilter; onFilter: (filter: NotesFilter) => void }

function Statistics({ location, filter, onFilter }: Props) {
  // The report's inputs keep their identity across renders, so its figures and charts are computed
  // and drawn once per answer, not on every render (issue 34: Statistik's CPU on the tablet).
  const period = useMemo(() => ({ from: filter.from, to: filter.to }), [filter.from, filter.to])
  const selectedKey = JSON.stringify(filter.personIds)
  const selected = useMemo(() => JSON.parse(selectedKey) as string[], [selectedKey])
  const persons = useLocationPersons(location.id)
  const statistics = useStatistics(location.id, period)
  const sorted = useMemo(() => sortByName(persons.data?.items ?? []), [persons.data])
  const statPersons = useMemo(
    () =>
      sorted.map((person) => ({
        id: person.id,
        name: personName(person),
        createdAt: person.createdAt,
        disabled: person.settings.disabled,
      })),
    [sorted],
  )
  // The period filter stays in place while the figures load (same element, so it keeps its state).
  const page = (content: ReactNode) => (
    <div className="statistics">
      <PeriodFilter
        key={JSON.stringify(filter)}
        persons={sorted.map((person) => ({ id: person.id, name: personName(person) }))}
        filter={filter}
        onFilter={onFilter}
        label={da.statistics.filters}
        className="no-print"
      />
      {content}
    </div>
  )
  return (
    <QueryState
      query={[persons, statistics]}
      errorMessage={da.statistics.loadFailed}
      isEmpty={(list) => list.items.length === 0}
      empty={da.statistics.noPersons}
      loading={page(
        <div aria-busy="true">
          <RouteLoading />
        </div>,
      )}
    >
      {(_persons, data) =>
        page(
          <StatisticsReport
            location={location}
            period={period}
            persons={statPersons}
            selected={selected}
            data={data}
          />,
        )
      }
    </QueryState>
  )
}
