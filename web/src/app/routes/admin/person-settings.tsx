import { da } from '@bosted/domain/messages/da'
import { daAccessLog } from '@bosted/domain/messages/da-access-log'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import { Link, useParams } from 'react-router-dom'
import { Page } from '../../../components/ui/page.tsx'
import { ExportPersonLink } from '../../../features/access-log/components/export-person-link.tsx'
import { movePerson, setPersonSignIn } from '../../../features/admin/api/admin-person.ts'
import { getAdminOverview } from '../../../features/admin/api/get-admin-overview.ts'
import { getPerson } from '../../../features/persons/api/get-person.ts'
import { queryKeys } from '../../../lib/query-keys.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { RouteLoading } from '../../layout/route-loading.tsx'

const danish = new Intl.Collator('da-DK')

/**
 * The Indstillinger tab of /admin/person/{id}/settings (the layout shows who): the person's location
 * (move), whether they can sign in, and the export of everything stored about them (indsigt).
 */
export function Component() {
  const { id = '' } = useParams()
  const queryClient = useQueryClient()
  const person = useQuery({ queryKey: queryKeys.person(id), queryFn: () => getPerson(id) })
  const overview = useQuery({ queryKey: queryKeys.adminOverview, queryFn: getAdminOverview })
  const [target, setTarget] = useState('')
  const ids = { move: useId(), signIn: useId() }
  // Everything that lists persons or their records follows the change.
  const refresh = () =>
    Promise.all(
      ['persons', 'admin', 'registrations', 'notes'].map((key) => queryClient.invalidateQueries({ queryKey: [key] })),
    )
  const move = useMutation({
    mutationFn: (locationId: string) =>
      toastPromise(movePerson(id, locationId), {
        pending: da.admin.movePending,
        resolved: da.admin.moveOk,
        rejected: da.admin.moveFail,
      }),
    onSettled: refresh,
    onError: (error) => console.warn('a person could not be moved', (error as Error).name),
  })
  const signIn = useMutation({
    mutationFn: (disabled: boolean) =>
      toastPromise(setPersonSignIn(id, disabled), {
        pending: da.admin.disablePending,
        resolved: da.admin.disableOk,
        rejected: da.admin.disableFail,
      }),
    onSettled: refresh,
    onError: (error) => console.warn("a person's sign-in could not be changed", (error as Error).name),
  })

  // The layout shows a missing person; this tab only waits for its data.
  if (person.data == null || overview.data === undefined)
    return (
      <Page title={daAccessLog.settingsTab} level={2}>
        <RouteLoading />
      </Page>
    )
  const current = person.data
  const locations = [...overview.data.locations].sort((a, b) => danish.compare(a.name, b.name))
  const here = locations.find((location) => location.id === current.locationId)
  const handleMove = (event: FormEvent) => {
    event.preventDefault()
    if (target !== '' && target !== current.locationId) move.mutate(target)
  }
  return (
    <Page title={daAccessLog.settingsTab} level={2}>
      <p>
        <Link className="button button--secondary" to={`/person/${encodeURIComponent(current.id)}/settings`}>
          {da.admin.editSettings}
        </Link>
      </p>
      <section aria-labelledby={ids.move}>
        <h3 id={ids.move}>{da.admin.personLocation}</h3>
        <form className="form" onSubmit={handleMove}>
          <div className="field">
            <label htmlFor={`${ids.move}-select`}>{da.admin.moveTo}</label>
            <select id={`${ids.move}-select`} value={target} onChange={(event) => setTarget(event.target.value)}>
              <option value="">{here?.name ?? '–'}</option>
              {locations
                .filter((location) => location.id !== current.locationId)
                .map((location) => (
                  <option key={location.id} value={location.id}>
                    {location.name}
                  </option>
                ))}
            </select>
          </div>
          <div className="form__actions">
            <button type="submit" className="button button--primary" disabled={target === '' || move.isPending}>
              {da.admin.move}
            </button>
          </div>
        </form>
      </section>
      <section aria-labelledby={ids.signIn}>
        <h3 id={ids.signIn}>{da.admin.signIn}</h3>
        <p>{current.settings.disabled ? da.admin.signInDisabled : da.admin.signInEnabled}</p>
        <button
          type="button"
          className={`button ${current.settings.disabled ? 'button--primary' : 'button--danger'}`}
          disabled={signIn.isPending}
          onClick={() => signIn.mutate(!current.settings.disabled)}
        >
          {current.settings.disabled ? da.admin.enable : da.admin.disable}
        </button>
      </section>
      <ExportPersonLink personId={current.id} />
    </Page>
  )
}
