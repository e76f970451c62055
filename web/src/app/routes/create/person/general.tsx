import { da } from '@bosted/domain/messages/da'
import { useEffect } from 'react'
import { useFormContext } from 'react-hook-form'
import { useNavigate, useOutletContext } from 'react-router-dom'
import { NameContactFields } from '../../../../components/ui/name-contact-fields.tsx'
import { Page } from '../../../../components/ui/page.tsx'
import { GENERAL_FIELDS, type PersonForm } from '../../../../features/creation/person-form.ts'
import { passwordHintProps, usePasswordPolicy } from '../../../../features/passwords/password-rules.ts'
import { AvatarPicker } from '../../../../lib/avatars/components/avatar-picker.tsx'
import { paths } from '../../../../lib/paths.ts'
import type { CreatePersonContext } from './layout.tsx'

/** Step 1: who the person is and how they sign in. */
export function Component() {
  const form = useFormContext<PersonForm>()
  const policy = usePasswordPolicy()
  const navigate = useNavigate()
  const { avatar, setAvatar, avatarProgress } = useOutletContext<CreatePersonContext>()
  // Sent back here because the e-mail is in use (the api's 409): the cursor goes to the e-mail.
  useEffect(() => {
    if (form.getFieldState('email').error?.type === 'conflict') form.setFocus('email')
  }, [form])
  const handleNext = async () => {
    if (await form.trigger([...GENERAL_FIELDS])) navigate(paths.create.personAnswers)
  }
  return (
    <Page title={da.pages.stepGeneral} level={2}>
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          void handleNext()
        }}
      >
        <NameContactFields password={passwordHintProps(policy)} />
        <AvatarPicker
          firstName={form.watch('firstName')}
          lastName={form.watch('lastName')}
          avatar={avatar}
          progress={avatarProgress}
          onChange={setAvatar}
        />
        <div className="form__actions">
          <button type="submit" className="button button--action">
            {da.form.next}
          </button>
        </div>
      </form>
    </Page>
  )
}
