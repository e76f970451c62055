import { da } from '@bosted/domain/messages/da'
import { hasRequiredFields } from '@bosted/domain/validation'
import { zodResolver } from '@hookform/resolvers/zod'
import { useCallback, useEffect } from 'react'
import { FormProvider, useForm } from 'react-hook-form'
import { Outlet, useNavigate } from 'react-router-dom'
import { LeaveGuard } from '../../../../components/ui/leave-guard.tsx'
import { Page } from '../../../../components/ui/page.tsx'
import { TabsNav } from '../../../../components/ui/tabs-nav.tsx'
import { useAddPerson } from '../../../../features/creation/api/add-person.ts'
import { isEmailInUse } from '../../../../features/creation/api/auth-accounts.ts'
import { personDraft } from '../../../../features/creation/draft-store.ts'
import {
  EMPTY_PERSON_FORM,
  GENERAL_FIELDS,
  type PersonForm,
  PersonFormSchema,
  type ValidPersonForm,
} from '../../../../features/creation/person-form.ts'
import { usePolicyRef, withPasswordPolicy } from '../../../../features/passwords/password-rules.ts'
import { useSavePersonAvatar } from '../../../../features/persons/api/save-person-avatar.ts'
import { type ChosenAvatar, useChosenAvatar } from '../../../../lib/avatars/use-chosen-avatar.ts'
import { paths } from '../../../../lib/paths.ts'
import { RouteLoading } from '../../../layout/route-loading.tsx'
import { useSettingsAccess } from '../../../use-settings-access.ts'

export type CreatePersonContext = {
  submit: () => void
  isSubmitting: boolean
  /** Kept in memory only (a file cannot go into sessionStorage): a reload asks for it again. */
  avatar: ChosenAvatar | null
  setAvatar: (avatar: ChosenAvatar | null) => void
  avatarProgress: number | null
}

/** Opret borger: one form over three steps (child routes), its draft kept in sessionStorage. */
export function Component() {
  const { location, loaded, isManager } = useSettingsAccess()
  const navigate = useNavigate()
  const passwordPolicy = usePolicyRef()
  const form = useForm<PersonForm, unknown, ValidPersonForm>({
    resolver: withPasswordPolicy(zodResolver(PersonFormSchema), passwordPolicy.get),
    mode: 'onBlur',
    reValidateMode: 'onChange',
    defaultValues: personDraft.load(EMPTY_PERSON_FORM),
  })

  useEffect(() => {
    const subscription = form.watch((values) => personDraft.save(values as PersonForm))
    return () => subscription.unsubscribe()
  }, [form])

  const [avatar, setAvatar] = useChosenAvatar()
  const saveAvatar = useSavePersonAvatar()
  const create = useAddPerson({
    // The picture goes under persons/{id}/, which the rules open once the person exists; without it
    // the person is still added (the toast has told the failure).
    afterAdd: async (personId) => {
      if (avatar !== null) await saveAvatar.mutateAsync({ personId, image: avatar.image }).catch(() => {})
    },
    onAdded: () => {
      personDraft.clear()
      setAvatar(null)
      form.reset(EMPTY_PERSON_FORM)
      navigate(paths.settings.persons)
    },
    onError: (error) => {
      // The e-mail is on step 1: the message goes there, where it can be fixed.
      if (isEmailInUse(error)) {
        form.setError('email', { type: 'conflict', message: da.validation.emailInUse })
        navigate(paths.create.personGeneral)
      }
    },
  })

  const submit = () => {
    if (location === null) return
    void form.handleSubmit(
      (values) => create.mutate({ values, locationId: location.id }),
      (errors) => {
        if (GENERAL_FIELDS.some((field) => field in errors)) navigate(paths.create.personGeneral)
        else if ('answers' in errors) navigate(paths.create.personAnswers)
      },
    )()
  }

  const shouldWarn = useCallback(() => {
    const values = form.getValues()
    return hasRequiredFields(values) && !PersonFormSchema.safeParse(values).success
  }, [form])

  return (
    <Page title={da.pages.createPerson}>
      {!loaded ? (
        <RouteLoading />
      ) : !isManager ? (
        <p className="notice">{da.form.readOnly}</p>
      ) : location === null ? (
        <p className="notice">{da.settingsList.noLocation}</p>
      ) : (
        <FormProvider {...form}>
          <p className="muted">{location.name}</p>
          <TabsNav
            label={da.pages.steps}
            items={[
              { to: paths.create.personGeneral, label: `1. ${da.pages.stepGeneral}` },
              { to: paths.create.personAnswers, label: `2. ${da.pages.stepAnswers}` },
              { to: paths.create.personSettings, label: `3. ${da.pages.stepSettings}` },
            ]}
          />
          <Outlet
            context={
              {
                submit,
                isSubmitting: create.isPending,
                avatar,
                setAvatar,
                avatarProgress: saveAvatar.progress,
              } satisfies CreatePersonContext
            }
          />
          <LeaveGuard shouldWarn={shouldWarn} within={paths.create.person} />
        </FormProvider>
      )}
    </Page>
  )
}
