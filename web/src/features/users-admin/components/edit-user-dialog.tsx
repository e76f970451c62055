import { da } from '@bosted/domain/messages/da'
import { displayName } from '@bosted/domain/names'
import type { User } from '@bosted/domain/user'
import { EDITABLE_ROLES, type UserEdit, UserEditSchema, type ValidUserEdit } from '@bosted/domain/user-edit'
import { JOB_ROLE_MAX_LENGTH, NAME_MAX_LENGTH } from '@bosted/domain/validation'
import { zodResolver } from '@hookform/resolvers/zod'
import { type ReactNode, useEffect } from 'react'
import { FormProvider, useForm } from 'react-hook-form'
import { Choice } from '../../../components/ui/choice.tsx'
import { Dialog } from '../../../components/ui/dialog.tsx'
import { Field } from '../../../components/ui/field.tsx'
import { TextField } from '../../../components/ui/text-field.tsx'

/** What the dialog hands back (the domain's UserEditSchema, parsed). */
export type EditedUser = ValidUserEdit

type Props = {
  user: User | null
  /** Admins change the role too (the api's role call). */
  canChangeRole: boolean
  /** What follows the form for this user (the route puts the temporary password there). */
  below?: (user: User, name: string) => ReactNode
  onSubmit: (user: User, values: EditedUser) => void
  onClose: () => void
}

/** Name, job role and disabled of a colleague; the role for admins. */
export function EditUserDialog({ user, canChangeRole, below, onSubmit, onClose }: Props) {
  const form = useForm<UserEdit, unknown, EditedUser>({ resolver: zodResolver(UserEditSchema), mode: 'onBlur' })
  useEffect(() => {
    if (user === null) return
    form.reset({
      firstName: user.firstName,
      lastName: user.lastName,
      jobRole: user.jobRole,
      disabled: user.settings.disabled,
      userRole: user.userRole === 'user' ? 'employee' : user.userRole,
    })
  }, [user, form])
  const name = user === null ? '' : displayName(user)
  return (
    <Dialog title={da.settingsList.editUser(name)} isOpen={user !== null} onClose={onClose}>
      {user !== null && (
        <FormProvider {...form}>
          <form noValidate onSubmit={form.handleSubmit((values) => onSubmit(user, values))}>
            <TextField<UserEdit> name="firstName" maxLength={NAME_MAX_LENGTH} label={da.form.firstName} />
            <TextField<UserEdit> name="lastName" maxLength={NAME_MAX_LENGTH} label={da.form.lastName} />
            <TextField<UserEdit> name="jobRole" maxLength={JOB_ROLE_MAX_LENGTH} label={da.form.jobRole} />
            {canChangeRole && (
              <Field label={da.form.role}>
                {(control) => (
                  <select {...control} {...form.register('userRole')}>
                    {EDITABLE_ROLES.map((role) => (
                      <option key={role} value={role}>
                        {da.form.roles[role]}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            )}
            <Choice label={da.form.disabled} {...form.register('disabled')} />
            <div className="dialog__actions">
              <button type="button" className="button button--secondary" onClick={onClose}>
                {da.form.cancel}
              </button>
              <button type="submit" className="button button--action">
                {da.form.save}
              </button>
            </div>
          </form>
          {below?.(user, name)}
        </FormProvider>
      )}
    </Dialog>
  )
}
