/**
 * @latchkey/react: React bindings for the Latchkey SDK. A provider and hooks
 * (thin `useSyncExternalStore` adapters over `ClientApp`), ready-made pages
 * (`SignIn`, `SignUp`, `SignOut`, served by `Handler`), `UserButton`, the
 * compound parts the pages are built from, `AuthCard` and `Spinner`. Every
 * word they show is in `englishLabels` and the known-error wording, both
 * replaceable (`labels`, `messages`). Styles: `@latchkey/react/styles.css`.
 *
 * React Server Components: every module that exports a component or hook
 * starts with `'use client'`, so a server component imports them from this
 * entry and renders them; the words (`englishLabels`, `formMessages`) and the
 * plain helpers (`errorText`, `normalizeCode`, `providerName`) stay usable by
 * server code too.
 *
 * @example
 * ```tsx
 * import { Handler, LatchkeyProvider, UserButton, useUser } from '@latchkey/react';
 * import '@latchkey/react/styles.css';
 * ```
 */

export {
  AccountSettings,
  type AccountSettingsProps,
  type AccountSettingsSection,
  accountSettingsSections,
} from './account-settings/account-settings.js';
export { AuthCard, type AuthCardProps } from './auth-card/auth-card.js';
export {
  CredentialForm,
  type CredentialFormProps,
  EmailField,
  type FieldProps,
  FormError,
  type FormErrorProps,
  PasswordField,
  type PasswordFieldProps,
  SubmitButton,
  type SubmitButtonProps,
} from './credential/credential-form.js';
export { type CredentialPageProps, SignIn, SignUp } from './credential/credential-pages.js';
export { PasswordInput, type PasswordInputProps } from './credential/password-input.js';
export { EmailVerification, type EmailVerificationProps } from './email/email-verification.js';
export { ForgotPassword, type ForgotPasswordProps } from './email/forgot-password.js';
export { PasswordReset, type PasswordResetProps } from './email/password-reset.js';
export { FormAlert, type FormAlertProps, OutcomeNotice } from './form/alert.js';
export {
  Form,
  FormField,
  type FormFieldProps,
  FormInputField,
  type FormInputFieldProps,
  type FormProps,
} from './form/form.js';
export { BusyButton, type BusyButtonProps } from './form/submit-button.js';
export {
  type FieldErrors,
  type FormAction,
  type Outcome,
  type SubmitOptions,
  useFormAction,
} from './form/use-form-action.js';
export { Handler, type HandlerProps } from './handler/handler.js';
export { SignOut, type SignOutProps } from './handler/sign-out.js';
export { errorText } from './internal/error-text.js';
export { type AppDataState, type UseQueryOptions, useQuery } from './internal/use-app-data.js';
export { englishLabels, type LatchkeyLabels, type LatchkeyTranslation } from './labels.js';
export { CodeInput, type CodeInputProps } from './magic-link/code-input.js';
export { MagicLinkCallback, type MagicLinkCallbackProps } from './magic-link/magic-link-callback.js';
export { normalizeCode } from './magic-link/normalize-code.js';
export { type FormMessageCode, formMessages, type LatchkeyMessages } from './messages.js';
export { OAuthButtons, type OAuthButtonsProps } from './oauth/oauth-buttons.js';
export { OAuthCallback, type OAuthCallbackProps } from './oauth/oauth-callback.js';
export { OAuthError, type OAuthErrorProps } from './oauth/oauth-error.js';
export { ProviderMark, type ProviderRef, providerName } from './oauth/provider-marks.js';
export { useConnectedAccount } from './oauth/use-connected-account.js';
export {
  LatchkeyDataProvider,
  type LatchkeyDataProviderProps,
  LatchkeyProvider,
  type LatchkeyProviderProps,
  type LatchkeyTheme,
  useApp,
} from './provider.js';
export { Spinner, type SpinnerProps } from './spinner.js';
export { SelectedTeamSwitcher, type SelectedTeamSwitcherProps } from './teams/selected-team-switcher.js';
export { TeamInvitation, type TeamInvitationProps } from './teams/team-invitation.js';
export { useTeam, useTeams } from './teams/use-teams.js';
export { type UseUserOptions, type UseUserOr, useUser } from './use-user.js';
export { UserButton, type UserButtonProps } from './user-button/user-button.js';
