import { da } from '@bosted/domain/messages/da'
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PHONE_MAX_LENGTH } from '@bosted/domain/validation'
import { TextField } from './text-field.tsx'

/** The fields these rows fill; the surrounding form may have more. */
type NameContact = { firstName: string; lastName: string; email: string; phone: string; password: string }

/**
 * First name, last name, e-mail and phone of the surrounding react-hook-form form, each bounded by
 * its schema's limit (the person and user forms). With `password` (its hint, if any), the new
 * password is asked for after the e-mail.
 */
export function NameContactFields({ password }: { password?: { hint?: string } }) {
  return (
    <>
      <TextField<NameContact>
        name="firstName"
        maxLength={NAME_MAX_LENGTH}
        label={da.form.firstName}
        autoComplete="off"
      />
      <TextField<NameContact> name="lastName" maxLength={NAME_MAX_LENGTH} label={da.form.lastName} autoComplete="off" />
      <TextField<NameContact>
        name="email"
        maxLength={EMAIL_MAX_LENGTH}
        label={da.form.email}
        type="email"
        autoComplete="off"
      />
      {password !== undefined && (
        <TextField<NameContact>
          name="password"
          label={da.form.password}
          type="password"
          autoComplete="new-password"
          {...password}
        />
      )}
      <TextField<NameContact>
        name="phone"
        maxLength={PHONE_MAX_LENGTH}
        label={da.form.phone}
        type="tel"
        autoComplete="off"
      />
    </>
  )
}
