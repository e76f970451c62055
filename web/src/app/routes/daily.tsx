import { da } from '@bosted/domain/messages/da'
import { roleRank } from '@bosted/domain/user'
import { useEffect, useId } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { Page } from '../../components/ui/page.tsx'
import { SkippedNotice } from '../../components/ui/skipped-notice.tsx'
import { StepNav } from '../../components/ui/step-nav.tsx'
import { useAnswerOptions } from '../../features/answers/api/get-answer-options.ts'
import type { LocationSummary } from '../../features/locations/locations-store.ts'
import { useActiveLocation } from '../../features/locations/use-active-location.ts'
import { useDayNoteCounts } from '../../features/notes/api/get-day-note-counts.ts'
import { useLocationPersons } from '../../features/persons/api/get-location-persons.ts'
import { PersonAvatar } from '../../features/persons/components/person-avatar.tsx'
import { personName, sortByName } from '../../features/persons/person-name.ts'
import { useDayRegistrations } from '../../features/registrations/api/get-day-registrations.ts'
import { DayRow } from '../../features/registrations/components/day-row.tsx'
import { RegistrationDialogs, useRegistrationFlow } from '../../features/registrations/components/registration-flow.tsx'
import { dayOverview, isFutureDay } from '../../features/registrations/registration-status.ts'
import { fullName, type SessionUser, session } from '../../features/session/session-store.ts'
import { useStaffNames } from '../../features/staff/api/get-location-staff-names.ts'
import { addDays, formatDay, isDay, today } from '../../lib/days.ts'
import { useNow } from '../../lib/use-now.ts'
import { RouteLoading } from '../layout/route-loading.tsx'

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
      {user === null || locations.isPending ? (
        <RouteLoading />
      ) : locations.isError ? (
        <LoadFailed onRetry={() => void locations.refetch()} />
      ) : location === null ? (
        <p className="notice">{da.daily.noLocation}</p>
      ) : (
        <DailyOverview
          key={`${location.id}/${day}`}
          user={user as SessionUser}
          location={location}
          day={day}
          now={now}
          filter={filter}
          onFilter={(value) => change('filter', value === 'all' ? null : value)}
        />
      )}
    </Page>
  )
}

function DayField({ day, onChange }: { day: string; onChange: (day: string) => void }) {
  const id = useId()
  return (
    <span className="step-nav__field">
      <label htmlFor={id}>{da.daily.day}</label>
      <input
        id={id}
        type="date"
        value={day}
        onChange={(event) => {
          if (isDay(event.target.value)) onChange(event.target.value)
        }}
      />
    </span>
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
  const isManager = roleRank(user.customClaims.userRole ?? 'user', user.customClaims) >= 2
  const flow = useRegistrationFlow(
    { id: user.id, name: fullName(user), isManager },
    { id: location.id, answerOptions: location.answerOptions ?? [] },
  )
  const options = useAnswerOptions(flow.asking, flow.optionsLocation, { isDialog: true })
  const failed = [persons, registrations, notes].filter((query) => query.isError)
  const failure = failed[0]?.error

  useEffect(() => {
    if (failure !== undefined) console.warn('the daily overview could not be loaded', (failure as Error).name)
  }, [failure])

  if (failed.length > 0) {
    return (
      <LoadFailed
        onRetry={() => {
          for (const query of failed) void query.refetch()
        }}
      />
    )
  }
  if (persons.data === undefined || registrations.data === undefined || notes.data === undefined) {
    return (
      <div className="daily__placeholder" aria-busy="true">
        <RouteLoading />
      </div>
    )
  }

  const active = sortByName(persons.data.items.filter((person) => !person.settings.disabled))
  if (active.length === 0) {
    return (
      <div className="notice">
        <p>{da.daily.noPersons}</p>
        {isManager && (
          <p>
            <Link to="/create/person">{da.daily.createPerson}</Link>
          </p>
        )}
      </div>
    )
  }

  const { rows, counts } = dayOverview({
    persons: active,
    registrations: registrations.data.items,
    noteCounts: notes.data,
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
    ...(staff.data ?? []),
    ...persons.data.items.map((person) => [person.id, personName(person)] as const),
  ])

  return (
    <>
      <div className="daily__bar">
        <p className="daily__summary">{da.daily.summary(counts)}</p>
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
      <SkippedNotice kind="persons" count={persons.data.skipped} />
      <SkippedNotice kind="registrations" count={registrations.data.skipped} />
      {registrations.data.items.length === 0 && registrations.data.skipped === 0 && !isFuture && (
        <p className="muted">{da.daily.noRegistrations}</p>
      )}
      {shown.length === 0 && <p className="muted">{emptyText}</p>}
      <ul className="daily__list" aria-label={da.daily.persons}>
        {shown.map((row) => {
          const base = `/person/${encodeURIComponent(row.person.id)}`
          return (
            <DayRow
              key={row.person.id}
              {...row}
              name={personName(row.person)}
              avatar={<PersonAvatar person={row.person} />}
              links={{ daily: `${base}/daily`, notes: `${base}/notes?day=${day}` }}
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

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="notice notice--error" role="alert">
      <p>{da.daily.loadFailed}</p>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        {da.daily.retry}
      </button>
    </div>
  )
}
