/**
 * `SecondFactorStep`: `SecondFactorCard` for the sign-in pages, its code (the
 * code step, the set-up, their words, the QR code's) loaded when a sign-in
 * first asks for the second factor, so the sign-in page's bundle carries only
 * this. Meanwhile a card with the step's title and a spinner.
 */
import { forwardRef, lazy, Suspense } from 'react';
import { AuthCard } from '../auth-card/auth-card.js';
import { Icon } from '../internal/icon.js';
import { useLabels } from '../internal/text.js';
import { Checking } from '../link-code/link-code-page.js';
import type { SecondFactorCardProps } from './second-factor.js';
import { signInStepLabels } from './sign-in-step-labels.js';

const SecondFactorCard = lazy(() =>
  import('./second-factor.js').then((module) => ({ default: module.SecondFactorCard })),
);

export const SecondFactorStep = forwardRef<HTMLDivElement, SecondFactorCardProps>(
  function SecondFactorStep(props, ref) {
    const labels = useLabels(signInStepLabels);
    const { attempt, noRedirect, onSuccess, onCancel, catalogueWording, ...rest } = props;
    return (
      <Suspense
        fallback={
          <AuthCard {...rest} ref={ref} icon={<Icon name="key" size={22} />} title={labels.mfaTitle}>
            <Checking>{labels.mfaLoading}</Checking>
          </AuthCard>
        }
      >
        <SecondFactorCard {...props} ref={ref} />
      </Suspense>
    );
  },
);
