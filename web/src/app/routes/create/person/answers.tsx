import { da } from '@bosted/domain/messages/da'
import { useNavigate } from 'react-router-dom'
import { Page } from '../../../../components/ui/page.tsx'
import { AnswerDraftsFields } from '../../../../features/creation/components/answer-drafts-fields.tsx'
import { paths } from '../../../../lib/paths.ts'

/** Step 2: the person's own answer options and whether the location's apply too. */
export function Component() {
  const navigate = useNavigate()
  return (
    <Page title={da.pages.stepAnswers} level={2}>
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          navigate(paths.create.personSettings)
        }}
      >
        <AnswerDraftsFields />
        <div className="form__actions">
          <button
            type="button"
            className="button button--secondary"
            onClick={() => navigate(paths.create.personGeneral)}
          >
            {da.form.back}
          </button>
          <button type="submit" className="button button--action">
            {da.form.next}
          </button>
        </div>
      </form>
    </Page>
  )
}
