import { da } from '@bosted/domain/messages/da'
import type { Person } from '@bosted/domain/person'
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
import type { StoredRegistration } from '../../features/registrations/api/registration-document.ts'
import {
  RegistrationDialogs,
  type RegistrationFlow,
  useRegistrationFlow,
} from '../../features/registrations/components/registration-flow.tsx'
import { RegistrationList } from '../../features/registrations/components/registration-list.tsx'
import {
  countStatuses,
  isFutureDay,
  type RegistrationStatus,
  registrationStatus,
  reminderTimeFor,
} from '../../features/registrations/registration-status.ts'
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

  const byPerson = new Map<string, StoredRegistration[]>()
  for (const registration of registrations.data.items) {
    byPerson.set(registration.personId, [...(byPerson.get(registration.personId) ?? []), registration])
  }
  const all = active.map((person) => {
    const own = byPerson.get(person.id) ?? []
    const reminderTime = reminderTimeFor(person.settings.notifications?.reminderTime, location.reminderTime)
    const status = registrationStatus({ count: own.length, day, reminderTime, now, createdAt: person.createdAt })
    return { person, registrations: own, reminderTime, status, notes: notes.data.get(person.id) ?? 0 }
  })
  // One vocabulary for the summary, the filter and the badges; a person created after the day is
  // counted as such and not listed (nothing was due from them).
  const counts = countStatuses(all.map((row) => row.status))
  const rows = all.filter((row) => row.status !== 'notApplicable')
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
        {shown.map((row) => (
          <PersonRow key={row.person.id} {...row} day={day} names={names} flow={flow} isReadOnly={isFuture} />
        ))}
      </ul>
      <RegistrationDialogs flow={flow} options={options} nameOf={personName} />
    </>
  )
}

type RowProps = {
  person: Person
  registrations: StoredRegistration[]
  reminderTime: string | null
  status: RegistrationStatus
  notes: number
  day: string
  names: Map<string, string>
  flow: RegistrationFlow
  /** A day still to come: no "Registrer". */
  isReadOnly: boolean
}

function PersonRow({ person, registrations, reminderTime, status, notes, day, names, flow, isReadOnly }: RowProps) {
  const nameId = useId()
  const name = personName(person)
  const base = `/person/${encodeURIComponent(person.id)}`
  return (
    <li className="daily-row">
      <article aria-labelledby={nameId} className="daily-row__card">
        <header className="daily-row__head">
          <PersonAvatar person={person} />
          <h2 id={nameId} className="daily-row__name">
            <Link to={`${base}/daily`}>{name}</Link>
          </h2>
          <StatusBadge status={status} reminderTime={reminderTime} />
        </header>
        {registrations.length > 0 && (
          <RegistrationList
            registrations={registrations}
            authorName={(uid) => names.get(uid) ?? null}
            canChange={flow.canChange}
            onCorrect={(registration) => flow.correct(person, registration)}
            onDelete={(registration) => flow.remove(person, registration)}
          />
        )}
        <footer className="daily-row__foot">
          {notes > 0 && <Link to={`${base}/notes?day=${day}`}>{da.daily.notes(notes)}</Link>}
          {!isReadOnly && (
            <button
              type="button"
              className="button button--action"
              aria-label={da.registration.registerFor(name)}
              onClick={() => flow.register(person, day)}
            >
              {da.registration.register}
            </button>
          )}
        </footer>
      </article>
    </li>
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

function StatusBadge({ status, reminderTime }: { status: RegistrationStatus; reminderTime: string | null }) {
  const due = reminderTime === null ? da.daily.endOfDay : da.daily.reminderAt(reminderTime)
  if (status === 'notApplicable') return null
  if (status === 'registered') return <span className="badge badge--ok">{da.daily.registered}</span>
  if (status === 'missing')
    return (
      <span className="badge badge--missing">
        {da.daily.missing} <span className="badge__detail">({due})</span>
      </span>
    )
  return (
    <span className="badge">
      {da.daily.notDue} <span className="badge__detail">({due})</span>
    </span>
  )
}
