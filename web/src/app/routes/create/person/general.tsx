import { da } from '@bosted/domain/messages/da'
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PHONE_MAX_LENGTH } from '@bosted/domain/validation'
import { useEffect, useState } from 'react'
import { useFormContext } from 'react-hook-form'
import { useNavigate, useOutletContext } from 'react-router-dom'
import { Page } from '../../../../components/ui/page.tsx'
import { TextField } from '../../../../components/ui/text-field.tsx'
import { GENERAL_FIELDS, type PersonForm } from '../../../../features/creation/person-form.ts'
import { passwordHintProps, usePasswordPolicy } from '../../../../features/passwords/password-rules.ts'
import { AvatarField } from '../../../../lib/avatars/components/avatar-field.tsx'
import { avatarErrorText, resizeImage } from '../../../../lib/avatars/resize-image.ts'
import type { CreatePersonContext } from './layout.tsx'

/** Step 1: who the person is and how they sign in. */
export function Component() {
  const form = useFormContext<PersonForm>()
  const policy = usePasswordPolicy()
  const navigate = useNavigate()
  const { avatar, setAvatar, avatarProgress } = useOutletContext<CreatePersonContext>()
  const [avatarError, setAvatarError] = useState<string | null>(null)
  // Sent back here because the e-mail is in use (the api's 409): the cursor goes to the e-mail.
  useEffect(() => {
    if (form.getFieldState('email').error?.type === 'conflict') form.setFocus('email')
  }, [form])
  const handleNext = async () => {
    if (await form.trigger([...GENERAL_FIELDS])) navigate('/create/person/answers')
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
        <TextField<PersonForm>
          name="firstName"
          maxLength={NAME_MAX_LENGTH}
          label={da.form.firstName}
          autoComplete="off"
        />
        <TextField<PersonForm>
          name="lastName"
          maxLength={NAME_MAX_LENGTH}
          label={da.form.lastName}
          autoComplete="off"
        />
        <TextField<PersonForm>
          name="email"
          maxLength={EMAIL_MAX_LENGTH}
          label={da.form.email}
          type="email"
          autoComplete="off"
        />
        <TextField<PersonForm>
          name="password"
          label={da.form.password}
          type="password"
          autoComplete="new-password"
          {...passwordHintProps(policy)}
        />
        <TextField<PersonForm>
          name="phone"
          maxLength={PHONE_MAX_LENGTH}
          label={da.form.phone}
          type="tel"
          autoComplete="off"
        />
        <AvatarField
          name={`${form.watch('firstName')} ${form.watch('lastName')}`.trim()}
          initials={`${form.watch('firstName').charAt(0)}${form.watch('lastName').charAt(0)}`.toUpperCase()}
          url={avatar?.preview ?? null}
          progress={avatarProgress}
          error={avatarError}
          disabled={false}
          onChoose={(file) => {
            setAvatarError(null)
            resizeImage(file).then(
              (image) => setAvatar({ image, preview: URL.createObjectURL(image) }),
              (failure: unknown) => setAvatarError(avatarErrorText(failure)),
            )
          }}
          onRemove={() => setAvatar(null)}
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
