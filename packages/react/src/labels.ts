/**
 * Interface text of the components (titles, buttons, links, field labels),
 * apart from the wording of errors (`messages.ts`). Each feature declares its
 * English words once, in its own table (`credential/credential-labels.ts`,
 * `teams/team-labels.ts`, …); `LatchkeyLabels` derives from those tables and
 * `englishLabels` joins them. Give a partial table to reword a few entries,
 * or a whole `LatchkeyLabels` object to translate them all, through the
 * `labels` prop of `LatchkeyProvider` (every component below it) or of a page.
 */
import { accountSettingsLabels } from './account-settings/account-settings-labels.js';
import { credentialLabels } from './credential/credential-labels.js';
import { emailLabels } from './email/email-labels.js';
import { handlerLabels } from './handler/handler-labels.js';
import { commonLabels } from './internal/common-labels.js';
import { linkCodeLabels } from './link-code/link-code-labels.js';
import { magicLinkLabels } from './magic-link/magic-link-labels.js';
import type { LatchkeyMessages } from './messages.js';
import { mfaLabels } from './mfa/mfa-labels.js';
import { signInStepLabels } from './mfa/sign-in-step-labels.js';
import { oauthLabels } from './oauth/oauth-labels.js';
import { passkeySignUpLabels } from './passkey/passkey-sign-up-labels.js';
import { teamLabels } from './teams/team-labels.js';
import { userButtonLabels } from './user-button/user-button-labels.js';

/** The label type of an English table: each entry a string, or a function of the same values giving one. */
export type LabelsOf<T> = { [K in keyof T]: T[K] extends (values: infer V) => string ? (values: V) => string : string };

/**
 * Every piece of interface text. Entries that embed a value are functions of
 * a named object, so a translation can place the value where its grammar
 * wants it.
 *
 * @example
 * ```ts
 * const french: LatchkeyLabels = {
 *   ...englishLabels, // start from English, then translate each entry
 *   signInTitleWithProject: ({ projectName }) => `Se connecter à ${projectName}`,
 *   showPassword: 'Afficher le mot de passe',
 * };
 * ```
 */
export interface LatchkeyLabels
  extends LabelsOf<typeof commonLabels>,
    LabelsOf<typeof credentialLabels>,
    LabelsOf<typeof handlerLabels>,
    LabelsOf<typeof emailLabels>,
    LabelsOf<typeof linkCodeLabels>,
    LabelsOf<typeof magicLinkLabels>,
    LabelsOf<typeof mfaLabels>,
    LabelsOf<typeof signInStepLabels>,
    LabelsOf<typeof passkeySignUpLabels>,
    LabelsOf<typeof oauthLabels>,
    LabelsOf<typeof userButtonLabels>,
    LabelsOf<typeof accountSettingsLabels>,
    LabelsOf<typeof teamLabels> {}

/**
 * The English interface text; the base every `labels` override applies to.
 *
 * @example
 * ```tsx
 * <SignIn labels={{ signInSubmit: 'Continue', signUpLink: 'Join now' }} />
 * console.log(englishLabels.passwordLabel); // "Password"
 * ```
 */
export const englishLabels: Readonly<LatchkeyLabels> = Object.freeze({
  ...commonLabels,
  ...credentialLabels,
  ...handlerLabels,
  ...emailLabels,
  ...linkCodeLabels,
  ...magicLinkLabels,
  ...mfaLabels,
  ...signInStepLabels,
  ...passkeySignUpLabels,
  ...oauthLabels,
  ...userButtonLabels,
  ...accountSettingsLabels,
  ...teamLabels,
});

/**
 * All the words of the components in one object: interface text (`labels`)
 * and the wording of errors (`messages`). Its two fields are the props of the
 * same names on `LatchkeyProvider`, `Handler` and the pages, so a whole
 * translation spreads onto any of them.
 *
 * @example
 * ```tsx
 * const french: LatchkeyTranslation = {
 *   labels: { signInSubmit: 'Se connecter', passwordLabel: 'Mot de passe' },
 *   messages: { EMAIL_PASSWORD_MISMATCH: 'E-mail ou mot de passe incorrect.' },
 * };
 * <LatchkeyProvider app={app} {...french}>…</LatchkeyProvider>
 * ```
 */
export interface LatchkeyTranslation {
  /** Interface text over `englishLabels` (any subset). */
  labels?: Partial<LatchkeyLabels>;
  /** Wording of known errors and form messages (any subset). */
  messages?: LatchkeyMessages;
}
