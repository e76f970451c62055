import { da } from '@bosted/domain/messages/da'
import { hasRequiredFields, JOB_ROLE_MAX_LENGTH } from '@bosted/domain/validation'
import { zodResolver } from '@hookform/resolvers/zod'
import { useCallback, useEffect } from 'react'
import { Controller, FormProvider, useForm } from 'react-hook-form'
import { useNavigate } from 'react-router-dom'
import { Choice } from '../../../../components/ui/choice.tsx'
import { LeaveGuard } from '../../../../components/ui/leave-guard.tsx'
import { NameContactFields } from '../../../../components/ui/name-contact-fields.tsx'
import { Page } from '../../../../components/ui/page.tsx'
import { TextField } from '../../../../components/ui/text-field.tsx'
import { useAddUser } from '../../../../features/creation/api/add-user.ts'
import { isEmailInUse } from '../../../../features/creation/api/auth-accounts.ts'
import { userDraft } from '../../../../features/creation/draft-store.ts'
import {
  emptyUserForm,
  rolesFor,
  type UserForm,
  UserFormSchema,
  type ValidUserForm,
} from '../../../../features/creation/user-form.ts'
import { passwordHintProps, usePolicyRef, withPasswordPolicy } from '../../../../features/passwords/password-rules.ts'
import { USER_UPDATE_TOASTS, updateUserAvatar } from '../../../../features/users-admin/api/update-user-avatar.ts'
import { useAvatarUpload } from '../../../../lib/avatars/api/use-avatar-upload.ts'
import { AvatarPicker } from '../../../../lib/avatars/components/avatar-picker.tsx'
import { useChosenAvatar } from '../../../../lib/avatars/use-chosen-avatar.ts'
import { paths } from '../../../../lib/paths.ts'
import { RouteLoading } from '../../../layout/route-loading.tsx'
import { useSettingsAccess } from '../../../use-settings-access.ts'

/** Opret bruger: a colleague with access to some of the creator's locations. */
export function Component() {
  const { location, loaded, isManager } = useSettingsAccess()
  return (
    <Page title={da.pages.stepGeneral} level={2}>
      {!loaded ? (
        <RouteLoading />
      ) : !isManager ? (
        <p className="notice">{da.form.readOnly}</p>
      ) : location === null ? (
        <p className="notice">{da.settingsList.noLocation}</p>
      ) : (
        <CreateUserForm activeLocationId={location.id} />
      )}
    </Page>
  )
}

function CreateUserForm({ activeLocationId }: { activeLocationId: string }) {
  const { user, isAdmin, list: locationList } = useSettingsAccess()
  const navigate = useNavigate()
  const roles = rolesFor(isAdmin)
  const passwordPolicy = usePolicyRef()
  const form = useForm<UserForm, unknown, ValidUserForm>({
    resolver: withPasswordPolicy(zodResolver(UserFormSchema), passwordPolicy.get),
    mode: 'onBlur',
    reValidateMode: 'onChange',
    defaultValues: userDraft.load(emptyUserForm([activeLocationId])),
  })

  useEffect(() => {
    const subscription = form.watch((values) => userDraft.save(values as UserForm))
    return () => subscription.unsubscribe()
  }, [form])

  const [avatar, setAvatar] = useChosenAvatar()
  const upload = useAvatarUpload(USER_UPDATE_TOASTS)
  const create = useAddUser({
    // After users/{uid} exists: storage.rules let whoever may update that document write its picture.
    // Without it the user is still added (the toast has told the failure).
    afterAdd: async (userId) => {
      if (avatar === null) return
      const save = (url: string) => updateUserAvatar(userId, url)
      await upload.mutateAsync({ owner: { kind: 'users', id: userId }, image: avatar.image, save }).catch(() => {})
    },
    onAdded: () => {
      userDraft.clear()
      form.reset(emptyUserForm([activeLocationId]))
      navigate(paths.settings.users)
    },
    onError: (error) => {
      if (isEmailInUse(error))
        form.setError('email', { type: 'conflict', message: da.validation.emailInUse }, { shouldFocus: true })
    },
  })

  const shouldWarn = useCallback(() => {
    const values = form.getValues()
    return hasRequiredFields(values) && !UserFormSchema.safeParse(values).success
  }, [form])

  // Only the creator's own locations can be given (the rules agree).
  const choices = locationList.filter((candidate) => isAdmin || (user?.locations ?? []).includes(candidate.id))

  return (
    <FormProvider {...form}>
      <form className="form" noValidate onSubmit={form.handleSubmit((values) => create.mutate(values))}>
        <NameContactFields password={passwordHintProps(passwordPolicy.policy)} />
        <TextField<UserForm>
          name="jobRole"
          maxLength={JOB_ROLE_MAX_LENGTH}
          label={da.form.jobRole}
          autoComplete="off"
        />
        <AvatarPicker
          firstName={form.watch('firstName')}
          lastName={form.watch('lastName')}
          avatar={avatar}
          progress={upload.progress}
          onChange={setAvatar}
        />
        <fieldset className="form__group">
          <legend>{da.form.role}</legend>
          {roles.map((role) => (
            <Choice key={role} type="radio" value={role} label={da.form.roles[role]} {...form.register('userRole')} />
          ))}
        </fieldset>
        <Controller
          control={form.control}
          name="locations"
          render={({ field, fieldState }) => (
            <fieldset className="form__group" aria-invalid={fieldState.invalid}>
              <legend>{da.form.locations}</legend>
              {choices.map((choice) => (
                <Choice
                  key={choice.id}
                  label={choice.name}
                  checked={field.value.includes(choice.id)}
                  onBlur={field.onBlur}
                  onChange={(event) =>
                    field.onChange(
                      event.target.checked ? [...field.value, choice.id] : field.value.filter((id) => id !== choice.id),
                    )
                  }
                />
              ))}
              {fieldState.error && (
                <p className="field__error" role="alert">
                  {fieldState.error.message}
                </p>
              )}
            </fieldset>
          )}
        />
        <div className="form__actions">
          <button type="submit" className="button button--action" disabled={create.isPending}>
            {da.form.createUser}
          </button>
        </div>
      </form>
      <LeaveGuard shouldWarn={shouldWarn} within={paths.create.user} />
    </FormProvider>
  )
}
