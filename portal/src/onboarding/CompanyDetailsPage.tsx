import { useCallback, useEffect, useState } from 'react';
import type { CompanyDetails } from '../../../domain/src/onboarding/details';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf, newIdempotencyKey, type ServiceOption, type StateOption } from '../api/client';
import { useFeedback } from '../shared/feedback';
import { useBa } from './BaContext';
import { CompanyDetailsForm, type ActionResult, type DetailsFormMode, type FieldErrors } from './CompanyDetailsForm';

export const detailsPath = (mode: DetailsFormMode) => `/onboard/ba-details/${mode}`;

export const successTexts = {
  saved: 'Company details saved successfully',
  submitted: 'Submitted for verification successfully',
} as const;

/**
 * The Company Details tab of the onboarding page (spec 000 §2 /onboard/ba-details/:action, §4 registration
 * wizard step 1): the company-details form, saved as a draft on its own.
 */
export function CompanyDetailsTab({
  readOnly,
  externalErrors,
}: {
  readOnly: boolean;
  /** Company-detail field errors of a refused submission. */
  externalErrors?: FieldErrors | null;
}) {
  const client = useApi();
  const { ba, setBa } = useBa();
  const { showError, notify, withLoading } = useFeedback();
  type Reference = { states: StateOption[]; services: ServiceOption[] };
  const [reference, setReference] = useState<Reference | null>(null);

  useEffect(() => {
    let live = true;
    withLoading(() => Promise.all([client.states(), client.services()]))
      .then(([states, services]) => live && setReference({ states, services }))
      .catch((e: unknown) => {
        if (live && !(isApiError(e) && e.status === 401)) showError(messageOf(e));
      });
    return () => {
      live = false;
    };
  }, [client, withLoading, showError]);

  const loadCities = useCallback((stateId: number) => client.cities(stateId), [client]);

  const onSave = async (details: CompanyDetails): Promise<ActionResult> => {
    try {
      setBa(await withLoading(() => client.saveDetails(ba.id, details, newIdempotencyKey()), 'Saving'));
      notify(successTexts.saved);
      return null;
    } catch (e) {
      // Field errors go back to the form; other failures open the error dialog. A 401 is the session's.
      if (isApiError(e) && e.status === 401) return null;
      if (isApiError(e) && Object.keys(e.fieldErrors).length > 0) {
        notify(e.message, 'error');
        return e.fieldErrors;
      }
      showError(messageOf(e));
      return null;
    }
  };

  if (!reference) return null;
  const mode: DetailsFormMode = readOnly ? 'view' : 'edit';
  return (
    <CompanyDetailsForm
      // Switching between view and edit starts the form afresh from the stored details.
      key={`${ba.id}-${mode}`}
      initial={ba.details}
      mode={mode}
      states={reference.states}
      services={reference.services}
      loadCities={loadCities}
      onSave={onSave}
      externalErrors={externalErrors}
    />
  );
}
