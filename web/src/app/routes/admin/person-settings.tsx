import { da } from '@bosted/domain/messages/da'
import { daAccessLog } from '@bosted/domain/messages/da-access-log'
import { type FormEvent, useId, useState } from 'react'
import { Link, useParams } from 'react-router-dom'
import { Field } from '../../../components/ui/field.tsx'
import { Page } from '../../../components/ui/page.tsx'
import { ExportPersonLink } from '../../../features/access-log/components/export-person-link.tsx'
import { useMovePerson, useSetPersonSignIn } from '../../../features/admin/api/admin-person.ts'
import { useAdminOverview } from '../../../features/admin/api/get-admin-overview.ts'
import { usePerson } from '../../../features/persons/api/get-person.ts'
import { paths } from '../../../lib/paths.ts'
import { RouteLoading } from '../../layout/route-loading.tsx'

const danish = new Intl.Collator('da-DK')

/**
 * The Indstillinger tab of /admin/person/{id}/settings (the layout shows who): the person's location
 * (move), whether they can sign in, and the export of everything stored about them (indsigt).
 */
export function Component() {
  const { id = '' } = useParams()
  const person = usePerson(id)
  const overview = useAdminOverview()
  const [target, setTarget] = useState('')
  const ids = { move: useId(), signIn: useId() }
  const move = useMovePerson(id)
  const signIn = useSetPersonSignIn(id)

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
        <Link className="button button--secondary" to={paths.person.settings.overview(current.id)}>
          {da.admin.editSettings}
        </Link>
      </p>
      <section aria-labelledby={ids.move}>
        <h3 id={ids.move}>{da.admin.personLocation}</h3>
        <form className="form" onSubmit={handleMove}>
          <Field label={da.admin.moveTo}>
            {(control) => (
              <select {...control} value={target} onChange={(event) => setTarget(event.target.value)}>
                <option value="">{here?.name ?? '–'}</option>
                {locations
                  .filter((location) => location.id !== current.locationId)
                  .map((location) => (
                    <option key={location.id} value={location.id}>
                      {location.name}
                    </option>
                  ))}
              </select>
            )}
          </Field>
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
