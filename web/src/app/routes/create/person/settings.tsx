import { da } from '@bosted/domain/messages/da'
import { useNavigate, useOutletContext } from 'react-router-dom'
import { Page } from '../../../../components/ui/page.tsx'
import { PersonSettingsFields } from '../../../../features/creation/components/person-settings-fields.tsx'
import { paths } from '../../../../lib/paths.ts'
import type { CreatePersonContext } from './layout.tsx'

/** Step 3: features, disabled and reminder time; then the person is created. */
export function Component() {
  const navigate = useNavigate()
  const { submit, isSubmitting } = useOutletContext<CreatePersonContext>()
  return (
    <Page title={da.pages.stepSettings} level={2}>
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          submit()
        }}
      >
        <PersonSettingsFields />
        <div className="form__actions">
          <button
            type="button"
            className="button button--secondary"
            onClick={() => navigate(paths.create.personAnswers)}
          >
            {da.form.back}
          </button>
          <button type="submit" className="button button--action" disabled={isSubmitting}>
            {da.form.createPerson}
          </button>
        </div>
      </form>
    </Page>
  )
}
