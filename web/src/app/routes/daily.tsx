import { da } from '@bosted/domain/messages/da'
import type { Person } from '@bosted/domain/person'
import { canManage, roleOfClaims } from '@bosted/domain/user'
import { useEffect } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { Field } from '../../components/ui/field.tsx'
import { Loading } from '../../components/ui/loading.tsx'
import { Page } from '../../components/ui/page.tsx'
import { QueryState } from '../../components/ui/query-state.tsx'
import { SkippedNotice } from '../../components/ui/skipped-notice.tsx'
import { StepNav } from '../../components/ui/step-nav.tsx'
import { useAnswerOptions, useAnswerOptionsAhead } from '../../features/answers/api/get-answer-options.ts'
import type { LocationSummary } from '../../features/locations/locations-store.ts'
import { useActiveLocation } from '../../features/locations/use-active-location.ts'
import { useDayNoteCounts } from '../../features/notes/api/get-day-note-counts.ts'
import { useLocationPersons } from '../../features/persons/api/get-location-persons.ts'
import { PersonAvatar } from '../../features/persons/components/person-avatar.tsx'
import { personName, sortByName } from '../../features/persons/person-name.ts'
import { useDayRegistrations } from '../../features/registrations/api/get-day-registrations.ts'
import type { StoredRegistration } from '../../features/registrations/api/registration-document.ts'
import { DayRow } from '../../features/registrations/components/day-row.tsx'
import {
  RegistrationDialogs,
  type RegistrationFlow,
  useRegistrationFlow,
} from '../../features/registrations/components/registration-flow.tsx'
import { dayOverview, isFutureDay } from '../../features/registrations/registration-status.ts'
import { fullName, type SessionUser, session } from '../../features/session/session-store.ts'
import { useStaffNames } from '../../features/staff/api/get-location-staff-names.ts'
import { addDays, formatDay, isDay, today } from '../../lib/days.ts'
import type { Parsed } from '../../lib/parse-records.ts'
import { paths } from '../../lib/paths.ts'
import { useNow } from '../../lib/use-now.ts'

type Filter = 'all' | 'missing'

/** Dagsoversigt: the active location's persons on one day (`?day=`), who is registered and who is missing. */
export function Component() {
  const { user } = useSnapshot(session)
  const { query: locations, location } = useActiveLocation(user?.locations ?? [])
  const [params, setParams] = useSearchParams()
  const now = useNow()
  const requested = params.get('day')
  const day = isDay(requested) ? requested : today(now)
  const filter: Filter = params.get('filter') === 'missing' ? 'missing' : 'all'

  // A `day` that is no day shows today, and leaves the URL (replacing it, so Back does not return to it).
  const isBadDay = requested !== null && !isDay(requested)
  useEffect(() => {
    if (!isBadDay) return
    setParams(
      (current) => {
        const next = new URLSearchParams(current)
        next.delete('day')
        return next
      },
      { replace: true },
    )
  }, [isBadDay, setParams])

  const change = (key: string, value: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current)
      if (value === null) next.delete(key)
      else next.set(key, value)
      return next
    })

  return (
    <Page title={da.pages.daily}>
      <StepNav
        label={da.daily.dayNav}
        previous={{ label: da.daily.previousDay, onClick: () => change('day', addDays(day, -1)) }}
        current={{ label: da.daily.today, onClick: () => change('day', today()), disabled: day === today(now) }}
        next={{ label: da.daily.nextDay, onClick: () => change('day', addDays(day, 1)) }}
      >
        <DayField day={day} onChange={(value) => change('day', value)} />
      </StepNav>
      <p className="daily__date">{formatDay(day)}</p>
      <QueryState
        query={locations}
        errorMessage={da.daily.loadFailed}
        report="the locations could not be loaded"
        isEmpty={() => location === null}
        empty={da.daily.noLocation}
      >
        {() =>
          user === null || location === null ? null : (
            <DailyOverview
              key={`${location.id}/${day}`}
              user={user as SessionUser}
              location={location}
              day={day}
              now={now}
              filter={filter}
              onFilter={(value) => change('filter', value === 'all' ? null : value)}
            />
          )
        }
      </QueryState>
    </Page>
  )
}

/** The day's date field in the step navigation: applied as it changes (a day that is no day is ignored). */
function DayField({ day, onChange }: { day: string; onChange: (day: string) => void }) {
  return (
    <Field label={da.daily.day} className="step-nav__field">
      {(control) => (
        <input
          {...control}
          type="date"
          value={day}
          onChange={(event) => {
            if (isDay(event.target.value)) onChange(event.target.value)
          }}
        />
      )}
    </Field>
  )
}

type OverviewProps = {
  user: SessionUser
  location: LocationSummary
  day: string
  now: Date
  filter: Filter
  onFilter: (filter: Filter) => void
}

function DailyOverview({ user, location, day, now, filter, onFilter }: OverviewProps) {
  const persons = useLocationPersons(location.id)
  const registrations = useDayRegistrations(location.id, day)
  const notes = useDayNoteCounts(location.id, day)
  // Registrations carry their author's name; only older ones without it need the staff's names,
  // read once per location after the rows (a missing name is no failure).
  const staff = useStaffNames(location.id, {
    enabled: registrations.data?.items.some((registration) => registration.createdByName === undefined) === true,
  })
  const isManager = canManage(roleOfClaims(user.customClaims), user.customClaims)
  const flow = useRegistrationFlow(
    { id: user.id, name: fullName(user), isManager },
    { id: location.id, answerOptions: location.answerOptions ?? [] },
  )
  const options = useAnswerOptions(flow.asking, flow.optionsLocation, { isDialog: true })
  // Read ahead at idle: a register dialog opened without a connection has its options.
  useAnswerOptionsAhead(persons.data?.items, location.id)
  return (
    <QueryState
      query={[persons, registrations, notes]}
      errorMessage={da.daily.loadFailed}
      report="the daily overview could not be loaded"
      loading={
        <div className="daily__placeholder" aria-busy="true">
          <Loading />
        </div>
      }
    >
      {(personList, dayRegistrations, noteCounts) => (
        <DayView
          persons={personList}
          registrations={dayRegistrations}
          noteCounts={noteCounts}
          staffNames={staff.data}
          isManager={isManager}
          flow={flow}
          options={options}
          location={location}
          day={day}
          now={now}
          filter={filter}
          onFilter={onFilter}
        />
      )}
    </QueryState>
  )
}

type DayViewProps = Omit<OverviewProps, 'user'> & {
  persons: Parsed<Person>
  registrations: Parsed<StoredRegistration>
  noteCounts: Map<string, number>
  staffNames: Map<string, string> | undefined
  isManager: boolean
  flow: RegistrationFlow
  options: Parameters<typeof RegistrationDialogs>[0]['options']
}

function DayView({
  persons,
  registrations,
  noteCounts,
  staffNames,
  isManager,
  flow,
  options,
  location,
  day,
  now,
  filter,
  onFilter,
}: DayViewProps) {
  const active = sortByName(persons.items.filter((person) => !person.settings.disabled))
  if (active.length === 0) {
    return (
      <div className="notice">
        <p>{da.daily.noPersons}</p>
        {isManager && (
          <p>
            <Link to={paths.create.person}>{da.daily.createPerson}</Link>
          </p>
        )}
      </div>
    )
  }

  const { rows, counts } = dayOverview({
    persons: active,
    registrations: registrations.items,
    noteCounts,
    locationReminderTime: location.reminderTime,
    day,
    now,
  })
  const shown = filter === 'missing' ? rows.filter((row) => row.status === 'missing') : rows
  const isFuture = isFutureDay(day, now)
  const emptyText =
    rows.length === 0
      ? da.daily.noPersonsThatDay
      : counts.notYet > 0
        ? da.daily.noneMissingYet(counts.notYet)
        : da.daily.noneMissing
  const names = new Map<string, string>([
    ...(staffNames ?? []),
    ...persons.items.map((person) => [person.id, personName(person)] as const),
  ])

  return (
    <>
      <div className="daily__bar">
        {/* A status: read out when it changes in place (a colleague's registration), not on arrival. */}
        <p className="daily__summary" role="status">
          {da.daily.summary(counts)}
        </p>
        <fieldset className="segmented">
          <legend className="visually-hidden">{da.daily.filter}</legend>
          {(['all', 'missing'] as const).map((value) => (
            <label key={value} className="segmented__option">
              <input type="radio" name="daily-filter" checked={filter === value} onChange={() => onFilter(value)} />
              <span>{value === 'all' ? da.daily.filterAll : da.daily.filterMissing}</span>
            </label>
          ))}
        </fieldset>
      </div>
      {isFuture && <p className="notice">{da.daily.futureDay}</p>}
      <SkippedNotice kind="persons" count={persons.skipped} />
      <SkippedNotice kind="registrations" count={registrations.skipped} />
      {registrations.items.length === 0 && registrations.skipped === 0 && !isFuture && (
        <p className="muted">{da.daily.noRegistrations}</p>
      )}
      {shown.length === 0 && <p className="muted">{emptyText}</p>}
      <ul className="daily__list" aria-label={da.daily.persons}>
        {shown.map((row) => {
          return (
            <DayRow
              key={row.person.id}
              {...row}
              name={personName(row.person)}
              avatar={<PersonAvatar person={row.person} />}
              links={{
                daily: paths.person.daily(row.person.id),
                notes: `${paths.person.notes(row.person.id)}?day=${day}`,
              }}
              authorName={(uid) => names.get(uid) ?? null}
              flow={flow}
              day={day}
              isReadOnly={isFuture}
            />
          )
        })}
      </ul>
      <RegistrationDialogs flow={flow} options={options} nameOf={personName} />
    </>
  )
}
