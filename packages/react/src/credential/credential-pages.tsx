'use client';
/** `SignIn` and `SignUp`: the credential pages, each a card around a `CredentialForm`. */
import type { MultiFactorAttempt } from '@latchkey/js';
import { forwardRef, type HTMLAttributes, lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { AuthCard } from '../auth-card/auth-card.js';
import { currentReturnTo, withReturnTo } from '../internal/return-to.js';
import { TextContext, useText, wordsOf } from '../internal/text.js';
import { useAppData } from '../internal/use-app-data.js';
import { useProjectName } from '../internal/use-project-name.js';
import type { LabelsOf, LatchkeyTranslation } from '../labels.js';
import { Checking } from '../link-code/link-code-page.js';
import { MagicLinkForm } from '../magic-link/magic-link-form.js';
import { magicLinkLabels } from '../magic-link/magic-link-labels.js';
import { SecondFactorStep } from '../mfa/second-factor-step.js';
import { signInStepLabels } from '../mfa/sign-in-step-labels.js';
import { OAuthButtons } from '../oauth/oauth-buttons.js';
import { PasskeySignIn } from '../passkey/passkey-sign-in.js';
import { useApp } from '../provider.js';
import { useInvitedEmail } from '../teams/use-invited-email.js';
import { CredentialForm, EmailField, FormError, PasswordField, SubmitButton } from './credential-form.js';
import { credentialLabels } from './credential-labels.js';

/** The passkey sign-up's steps, loaded when first shown. */
const PasskeySignUp = lazy(() =>
  import('../passkey/passkey-sign-up.js').then((module) => ({ default: module.PasskeySignUp })),
);

/**
 * Props of `SignIn` and `SignUp`: the project name, the words (`labels`,
 * `messages`), what happens on success, and any `<div>` prop for the page
 * element (`className`, `id`, `data-*`…).
 *
 * @example
 * ```tsx
 * <SignUp projectName="Acme" messages={{ USER_EMAIL_ALREADY_EXISTS: 'You already have an account: sign in.' }} />
 * ```
 */
export interface CredentialPageProps extends LatchkeyTranslation, Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** Project name for the title; defaults to the provider's `projectName`, else the service's display name. */
  projectName?: string;
  /** Stay on the page after success instead of redirecting. */
  noRedirect?: boolean;
  /** Called after the service accepted the credentials. */
  onSuccess?: (result: { email: string }) => void;
}

/**
 * The sign-in page: e-mail and password with a "Forgot password?" link, and a
 * link to sign-up that keeps `after_auth_return_to`. When the project enables
 * magic link it also offers "E-mail me a code": an e-mail, then the
 * six-character code from the mail (typed or pasted, any case), with "send a
 * new code"; a project without passwords shows only that. After success the SDK sends the user to
 * `after_auth_return_to` or the after-sign-in page. The title names the
 * project as soon as its name is known; the page never waits for it. Other
 * props and the ref go to the page element.
 *
 * @example
 * ```tsx
 * <LatchkeyProvider app={app} projectName="Acme">
 *   <SignIn messages={{ EMAIL_PASSWORD_MISMATCH: 'That e-mail and password do not match.' }} />
 * </LatchkeyProvider>
 * ```
 */
export const SignIn = forwardRef<HTMLDivElement, CredentialPageProps>(function SignIn(props, ref) {
  return <CredentialPage {...props} ref={ref} kind="sign-in" />;
});

/**
 * The sign-up page: e-mail and a new password, with a link to sign-in that
 * keeps `after_auth_return_to`. When the project enables passkeys and
 * e-mailed codes it also offers "Sign up with a passkey" (the page's only way
 * when passwords are off): an e-mail, the six-character code from the mail
 * (it proves the address and creates the account), then the browser creates
 * the passkey; one it refuses can be tried again or skipped. After success the SDK sends the new user to
 * `after_auth_return_to` or the after-sign-up page. Other props and the ref
 * go to the page element.
 *
 * @example
 * ```tsx
 * <LatchkeyProvider app={app}>
 *   <SignUp projectName="Acme" labels={{ signUpSubmit: 'Join Acme' }} />
 * </LatchkeyProvider>
 * ```
 */
export const SignUp = forwardRef<HTMLDivElement, CredentialPageProps>(function SignUp(props, ref) {
  return <CredentialPage {...props} ref={ref} kind="sign-up" />;
});

interface PageSetup extends CredentialPageProps {
  kind: 'sign-in' | 'sign-up';
}

const CredentialPage = forwardRef<HTMLDivElement, PageSetup>(function CredentialPage(
  { kind, projectName, labels, messages, noRedirect, onSuccess, ...rest },
  ref,
) {
  const app = useApp();
  const text = useText({ labels, messages });
  const name = useProjectName(projectName);
  const all = wordsOf(text, credentialLabels, magicLinkLabels);
  const steps = wordsOf(text, signInStepLabels);
  const words = pageWords(kind, all);
  const otherPage = kind === 'sign-in' ? app.urls.signUp : app.urls.signIn;
  const footer: ReactNode = (
    <>
      {words.prompt}{' '}
      <a className="lk-link" href={withReturnTo(otherPage, currentReturnTo())}>
        {words.link}
      </a>
    </>
  );
  // Which methods the project offers; until its settings load, the password form (the usual one) shows.
  const project = useAppData('project', { suspend: false });
  const methods = project.status === 'ready' ? project.data.config : undefined;
  const [email, setEmail] = useState('');
  // Opened from a team invitation: its address is filled in, and signing up with it needs no verification mail.
  const invitedEmail = useInvitedEmail(kind === 'sign-up' ? currentReturnTo() : null);
  useEffect(() => {
    if (invitedEmail) setEmail((typed) => typed || invitedEmail);
  }, [invitedEmail]);
  // Somebody already signed in has nothing to do here: on to where a sign-in ends. Decided once, at the first
  // answer, so that signing in on this page (a passkey to set up next, say) is not cut short.
  const signedIn = useArrivedSignedIn(noRedirect);
  // The way in chosen over the password form (`null`: the password form, when passwords are on).
  const [way, setWay] = useState<'code' | 'passkey' | null>(null);
  const magicLink = kind === 'sign-in' && methods?.magicLinkEnabled === true;
  const password = methods?.credentialEnabled !== false;
  const showCode = magicLink && (way === 'code' || !password);
  const providers = methods?.oauthProviders ?? [];
  const passkey = kind === 'sign-in' && methods?.passkeyEnabled === true;
  // Sign-up with a passkey: an e-mailed code proves the address first.
  const passkeySignUp = kind === 'sign-up' && methods?.passkeyEnabled === true && methods.magicLinkEnabled;
  const showPasskeySignUp = passkeySignUp && (way === 'passkey' || !password);
  // A first factor accepted, the second asked for: the page becomes the code step (or the set-up).
  const [attempt, setAttempt] = useState<MultiFactorAttempt | null>(null);
  // The passkey autofill runs until another method starts (a form is sent), and again once that one fails.
  const [otherMethod, setOtherMethod] = useState(false);
  const otherMethodFailed = () => setOtherMethod(false);
  // Back from the code form, the e-mail field takes the focus the vanished button had.
  const emailInput = useRef<HTMLInputElement>(null);
  const cameBack = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: also back from the second step (`attempt`)
  useEffect(() => {
    if (showCode || showPasskeySignUp || !cameBack.current) return;
    cameBack.current = false;
    emailInput.current?.focus();
  }, [showCode, showPasskeySignUp, attempt]);
  /** The separator between two ways in. */
  const or = (
    <p className="lk-divider">
      <span>{all.orSeparator}</span>
    </p>
  );
  /** The button that shows another way in than the password form. */
  const switchTo = (to: 'code' | 'passkey', label: string) => (
    <button type="button" className="lk-button lk-button-secondary lk-button-block" onClick={() => setWay(to)}>
      {label}
    </button>
  );
  /** Back to the password form from the e-mailed code or the passkey sign-up. */
  const usePassword = password
    ? () => {
        cameBack.current = true;
        setWay(null);
        setOtherMethod(false);
      }
    : undefined;
  // The e-mailed-code forms (sign-in by code, the passkey sign-up's first steps) share the page's e-mail and ends.
  const codeFormProps = {
    email,
    onEmailChange: setEmail,
    onUsePassword: usePassword,
    noRedirect,
    onSuccess,
    onMultiFactor: setAttempt,
  };
  if (signedIn) {
    return (
      <TextContext.Provider value={text}>
        <AuthCard {...rest} ref={ref} title={words.title(name)}>
          <Checking>{all.signedInRedirecting}</Checking>
        </AuthCard>
      </TextContext.Provider>
    );
  }
  if (attempt) {
    return (
      <TextContext.Provider value={text}>
        <SecondFactorStep
          {...rest}
          ref={ref}
          attempt={attempt}
          noRedirect={noRedirect}
          onSuccess={() => onSuccess?.({ email: email.trim() })}
          onCancel={() => {
            cameBack.current = true;
            setAttempt(null);
            setOtherMethod(false);
          }}
        />
      </TextContext.Provider>
    );
  }
  return (
    <TextContext.Provider value={text}>
      <AuthCard
        {...rest}
        ref={ref}
        title={words.title(name)}
        // The passkey sign-up says its own (it loads with its words).
        subtitle={showCode ? all.magicLinkSubtitle : showPasskeySignUp ? null : words.subtitle}
        footer={footer}
      >
        {passkey ? (
          <>
            <PasskeySignIn
              autofill={!otherMethod}
              noRedirect={noRedirect}
              onSuccess={() => onSuccess?.({ email: email.trim() })}
              onMultiFactor={setAttempt}
            />
            {or}
          </>
        ) : null}
        {passkeySignUp && !showPasskeySignUp ? (
          <>
            {switchTo('passkey', steps.passkeySignUp)}
            {or}
          </>
        ) : null}
        <div className="lk-sign-in-methods" onSubmit={() => setOtherMethod(true)}>
          {providers.length > 0 ? (
            <>
              <OAuthButtons providers={providers} />
              {password || magicLink || passkeySignUp ? or : null}
            </>
          ) : null}
          {showPasskeySignUp ? (
            <Suspense fallback={<Checking>{steps.mfaLoading}</Checking>}>
              <PasskeySignUp {...codeFormProps} />
            </Suspense>
          ) : !password && !magicLink && providers.length > 0 ? null : showCode ? (
            <MagicLinkForm
              {...codeFormProps}
              onFailure={otherMethodFailed}
              emailAutoComplete={passkey ? 'username webauthn' : undefined}
            />
          ) : (
            <CredentialForm
              kind={kind}
              noRedirect={noRedirect}
              onSuccess={onSuccess}
              email={email}
              onEmailChange={setEmail}
              onMultiFactor={setAttempt}
              onFailure={otherMethodFailed}
              provenEmail={invitedEmail}
            >
              <FormError />
              {/* With passkeys, the browser offers them in this field's autofill. */}
              <EmailField ref={emailInput} {...(passkey ? { autoComplete: 'username webauthn' } : {})} />
              <PasswordField />
              {kind === 'sign-in' ? (
                <a className="lk-link lk-forgot-link" href={app.urls.forgotPassword}>
                  {all.forgotPasswordLink}
                </a>
              ) : null}
              <SubmitButton />
            </CredentialForm>
          )}
          {magicLink && !showCode ? (
            <>
              {or}
              {switchTo('code', all.magicLinkOption)}
            </>
          ) : null}
        </div>
      </AuthCard>
    </TextContext.Provider>
  );
});

/**
 * Whether the page was opened by somebody signed in, decided at the first answer about the user; such a
 * visitor is sent where a sign-in ends (`after_auth_return_to`, else the after-sign-in page) unless
 * `noRedirect`.
 */
function useArrivedSignedIn(noRedirect: boolean | undefined): boolean {
  const app = useApp();
  const [arrived, setArrived] = useState<boolean | null>(null);
  // Once decided, the page no longer asks for the user (a sign-in on it would load the user again for nothing).
  const user = useAppData('user', { suspend: false, enabled: arrived === null });
  // A form sent before the first answer came is a sign-in made here: the user it brings is no visitor's, and
  // the form goes on by itself (a second redirect racing the form's own could land elsewhere).
  const sentBeforeAnswer = useRef(false);
  useEffect(() => {
    if (arrived !== null) return;
    const sent = () => {
      sentBeforeAnswer.current = true;
    };
    document.addEventListener('submit', sent, true);
    return () => document.removeEventListener('submit', sent, true);
  }, [arrived]);
  useEffect(() => {
    if (arrived !== null || user.status === 'loading') return;
    setArrived(!sentBeforeAnswer.current && user.status === 'ready' && user.data !== null);
  }, [arrived, user]);
  const leave = arrived === true && !noRedirect;
  useEffect(() => {
    if (leave) void app.redirectToAfterSignIn();
  }, [leave, app]);
  return leave;
}

/** The words of one credential page, picked from the labels. */
function pageWords(kind: 'sign-in' | 'sign-up', labels: Readonly<LabelsOf<typeof credentialLabels>>) {
  const signIn = kind === 'sign-in';
  return {
    /** The title for a project name (`undefined`: still loading; `null`: unknown). */
    title: (name: string | null | undefined) => {
      if (name) return (signIn ? labels.signInTitleWithProject : labels.signUpTitleWithProject)({ projectName: name });
      if (name === null) return signIn ? labels.signInTitleUnnamed : labels.signUpTitleUnnamed;
      return signIn ? labels.signInTitle : labels.signUpTitle;
    },
    subtitle: signIn ? labels.signInSubtitle : labels.signUpSubtitle,
    prompt: signIn ? labels.signUpPrompt : labels.signInPrompt,
    link: signIn ? labels.signUpLink : labels.signInLink,
  };
}
