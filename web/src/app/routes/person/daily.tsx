import { da } from '@bosted/domain/messages/da'
import { canManage, roleOfClaims } from '@bosted/domain/user'
import { useId } from 'react'
import { useParams, useSearchParams } from 'react-router-dom'
import { useSnapshot } from 'valtio'
import { Loading } from '../../../components/ui/loading.tsx'
import { Page } from '../../../components/ui/page.tsx'
import { QueryState } from '../../../components/ui/query-state.tsx'
import { SkippedNotice } from '../../../components/ui/skipped-notice.tsx'
import { StepNav } from '../../../components/ui/step-nav.tsx'
import { useAnswerOptions, useAnswerOptionsAhead } from '../../../features/answers/api/get-answer-options.ts'
import { useActiveLocation } from '../../../features/locations/use-active-location.ts'
import { usePerson } from '../../../features/persons/api/get-person.ts'
import { personName } from '../../../features/persons/person-name.ts'
import { usePersonRegistrations } from '../../../features/registrations/api/get-person-registrations.ts'
import {
  RegistrationDialogs,
  useRegistrationFlow,
} from '../../../features/registrations/components/registration-flow.tsx'
import { RegistrationList } from '../../../features/registrations/components/registration-list.tsx'
import { dailyMeans, ValuesChart } from '../../../features/registrations/components/values-chart.tsx'
import { fullName, type SessionUser, session } from '../../../features/session/session-store.ts'
import { useStaffNames } from '../../../features/staff/api/get-location-staff-names.ts'
import { addDays, formatDay, formatShortDay, isoWeek, today, weekDays, weekStart } from '../../../lib/days.ts'
import { CHART_DAYS, personDailyRange } from './daily-range.ts'

/** One person's registrations a week at a time (`?week=` any day of it), and their last 30 days. */
export function Component() {
  const { id = '' } = useParams()
  const { user } = useSnapshot(session)
  const { list } = useActiveLocation(user?.locations ?? [])
  const [params, setParams] = useSearchParams()
  const now = today()
  const { monday, sunday, chartFrom } = personDailyRange(params.get('week'), now)

  const person = usePerson(id)
  const week = usePersonRegistrations(id, monday, sunday)
  const chart = usePersonRegistrations(id, chartFrom, now)
  const location = list.find((candidate) => candidate.id === person.data?.locationId)
  // Who registered: the location's staff names, read once per location (none is no failure).
  const locationId = person.data?.locationId ?? null
  // Registrations carry their author's name; only older ones without it need this read.
  const staff = useStaffNames(locationId ?? '', {
    enabled:
      locationId !== null &&
      [...(week.data?.items ?? []), ...(chart.data?.items ?? [])].some(
        (registration) => registration.createdByName === undefined,
      ),
  })
  const author = user as SessionUser
  const flow = useRegistrationFlow(
    {
      id: author.id,
      name: fullName(author),
      isManager: canManage(roleOfClaims(author.customClaims), author.customClaims),
    },
    person.data?.locationId == null
      ? null
      : { id: person.data.locationId, answerOptions: location?.answerOptions ?? [] },
  )
  const options = useAnswerOptions(flow.asking, flow.optionsLocation, { isDialog: true })
  // Read ahead at idle: a register dialog opened without a connection has its options.
  useAnswerOptionsAhead(person.data ? [person.data] : undefined, locationId)
  const goTo = (day: string) => setParams({ week: day })
  const headingId = useId()

  const loading = (
    <div className="daily__placeholder" aria-busy="true">
      <Loading />
    </div>
  )
  const target = person.data
  const body =
    target == null ? (
      loading
    ) : (
      <QueryState
        query={[week, chart]}
        errorMessage={da.daily.personLoadFailed}
        report="a person's week could not be loaded"
        loading={loading}
      >
        {(weekData, chartData) => {
          const chartDays = Array.from({ length: CHART_DAYS }, (_, index) => addDays(chartFrom, index))
          const points = dailyMeans(chartDays, chartData.items)
          const withValues = points.filter((point) => point.value !== null).length
          return (
            <>
              <SkippedNotice kind="registrations" count={weekData.skipped} />
              <ol className="week" aria-labelledby={headingId}>
                {weekDays(monday).map((day) => {
                  const registrations = weekData.items.filter((registration) => registration.day === day)
                  return (
                    <li key={day} className="week__day">
                      <section aria-label={formatDay(day)}>
                        <h4 className="week__title">
                          {formatShortDay(day)}
                          {day === now && ` · ${da.daily.today}`}
                        </h4>
                        {registrations.length === 0 ? (
                          <p className="muted">{da.daily.noRegistrations}</p>
                        ) : (
                          <RegistrationList
                            registrations={registrations}
                            authorName={(uid) =>
                              uid === target.id ? personName(target) : (staff.data?.get(uid) ?? null)
                            }
                            canChange={flow.canChange}
                            onCorrect={(registration) => flow.correct(target, registration)}
                            onDelete={(registration) => flow.remove(target, registration)}
                          />
                        )}
                        {/* A day still to come is read-only. */}
                        {day <= now && (
                          <button
                            type="button"
                            className="button button--action button--small"
                            aria-label={`${da.registration.register} ${formatDay(day)}`}
                            onClick={() => flow.register(target, day)}
                          >
                            {da.registration.register}
                          </button>
                        )}
                      </section>
                    </li>
                  )
                })}
              </ol>
              <ValuesChart title={da.daily.chart} summary={da.daily.chartSummary(withValues)} points={points} />
              <RegistrationDialogs flow={flow} options={options} nameOf={personName} />
            </>
          )
        }}
      </QueryState>
    )

  return (
    <Page title={da.pages.personDaily} level={2}>
      <StepNav
        label={da.daily.weekNav}
        previous={{ label: da.daily.previousWeek, onClick: () => goTo(addDays(monday, -7)) }}
        current={{ label: da.daily.thisWeek, onClick: () => goTo(now), disabled: monday === weekStart(now) }}
        next={{ label: da.daily.nextWeek, onClick: () => goTo(addDays(monday, 7)) }}
      />
      <h3 id={headingId} className="week__heading">
        {da.daily.week(isoWeek(monday))}: {formatShortDay(monday)} – {formatShortDay(sunday)}
      </h3>
      {body}
    </Page>
  )
}
