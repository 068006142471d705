import { Alert, Box, Card, CardContent, CircularProgress, Step, StepButton, Stepper, Tooltip, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Title, useNotify, usePermissions } from 'react-admin';
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { RfpStepNumber } from '../../../../domain/src/rfp/model';
import { restoreOnOpen, stepAfterSubmit } from '../../../../domain/src/rfp/wizard';
import { errorText } from '../../providers/httpClient';
import { mayChangeRfps } from '../access';
import { fetchRfp } from '../api';
import { RFP_DASHBOARD_PATH, rfpViewPath } from '../paths';
import type { RfpCommandAnswer, RfpStaffView } from '../types';
import { isStaffView } from './api';
import { disabledReason, progressOf, rfpWizardPath, useStepEnablement, WIZARD_STEPS } from './progress';
import { Step1Opportunity } from './Step1Opportunity';
import { Step2Properties } from './Step2Properties';
import { Step3Lanes } from './Step3Lanes';
import { Step4BaSelection } from './Step4BaSelection';
import { Step5Float } from './Step5Float';

export const WIZARD_TEXTS = {
  staffOnly: 'Only the RFP staff roles may create or edit RFPs',
  notDraft: 'This RFP has been floated: the wizard edits drafts only',
  saved: (step: number) => `Step ${step} saved`,
} as const;

const stepOf = (param: string | undefined): RfpStepNumber => {
  const n = Number(param);
  return n === 2 || n === 3 || n === 4 || n === 5 ? n : 1;
};

/**
 * /rfp/MLL/createRfp/:step[?code=] (spec 001 §2): the five-step wizard. Without a code it creates an RFP (only step
 * 1 is open); with one it edits that draft, read from GET /api/rfps/:code. Which steps may be opened is the
 * domain's (`stepEnablement`, applied after `wizardDelayMs`); a disabled step is not clickable and tells why.
 */
export const RfpWizard = () => {
  const { step: stepParam } = useParams<{ step: string }>();
  const [search] = useSearchParams();
  const code = search.get('code');
  const { permissions, isPending: rolesPending } = usePermissions<string[]>();
  const rfp = useQuery({ queryKey: ['rfps', code], queryFn: () => fetchRfp(code ?? ''), enabled: code !== null, retry: false });

  if (rolesPending) return <CircularProgress sx={{ m: 2 }} />;
  if (!mayChangeRfps(permissions))
    return (
      <Alert severity="warning" sx={{ mt: 2 }}>
        {WIZARD_TEXTS.staffOnly}
      </Alert>
    );
  if (code !== null && rfp.isPending) return <CircularProgress sx={{ m: 2 }} />;
  if (code !== null && rfp.isError)
    return (
      <Alert severity="error" sx={{ mt: 2 }}>
        {errorText(rfp.error)}
      </Alert>
    );
  return <WizardBody key={code ?? 'new'} rfp={code !== null ? (rfp.data ?? null) : null} step={stepOf(stepParam)} />;
};

const WizardBody = ({ rfp, step }: { rfp: RfpStaffView | null; step: RfpStepNumber }) => {
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const flags = useStepEnablement(progressOf(rfp));
  const rfpType = rfp?.rfpType ?? null;
  const blocked = disabledReason(step, flags, rfpType);
  // Spec 001 §4: the step the wizard was opened at says which saved steps are put back; a step saved since is.
  const [cleared, setCleared] = useState<ReadonlySet<RfpStepNumber>>(() => new Set(rfp ? restoreOnOpen(step).clear : []));
  const savedNow = (saved: RfpStepNumber) => setCleared((prev) => new Set([...prev].filter((s) => s !== saved)));

  /** The answer is the RFP after the command: the stepper reads it at once; a late read model is read again. */
  const took = (code: string, answer: RfpCommandAnswer) => {
    if (isStaffView(answer)) queryClient.setQueryData(['rfps', code], answer);
    else void queryClient.invalidateQueries({ queryKey: ['rfps', code] });
  };
  const savedThenGo = (saved: RfpStepNumber, next: RfpStepNumber) => (answer: RfpCommandAnswer, code = rfp?.rfpCode ?? '') => {
    took(code, answer);
    notify(WIZARD_TEXTS.saved(saved), { type: 'success' });
    navigate(rfpWizardPath(next, code));
  };

  return (
    <Box sx={{ mt: 1, display: 'grid', gap: 1 }}>
      <Title title={rfp ? `RFP ${rfp.rfpCode}` : 'Create RFP'} />
      <Typography variant="h5" component="h1">
        {rfp ? `RFP ${rfp.rfpCode}` : 'Create RFP'}
      </Typography>
      <Typography variant="body2">
        <RouterLink to={rfp ? rfpViewPath(rfp.rfpCode, rfp.rfpType) : RFP_DASHBOARD_PATH}>{rfp ? 'Back to the RFP' : 'Back to the RFP dashboard'}</RouterLink>
      </Typography>
      <Stepper nonLinear activeStep={step - 1} aria-label="RFP wizard steps">
        {WIZARD_STEPS.map((s) => {
          const reason = disabledReason(s.step, flags, rfpType);
          const button = (
            <StepButton
              disabled={reason !== null}
              aria-description={reason ?? undefined}
              aria-current={s.step === step ? 'step' : undefined}
              onClick={() => navigate(rfpWizardPath(s.step, rfp?.rfpCode))}
            >
              {s.label}
            </StepButton>
          );
          return (
            <Step key={s.step} completed={false} disabled={reason !== null}>
              {reason === null ? (
                button
              ) : (
                <Tooltip title={reason}>
                  <span>{button}</span>
                </Tooltip>
              )}
            </Step>
          );
        })}
      </Stepper>
      {rfp && rfp.status !== 'draft' && <Alert severity="info">{WIZARD_TEXTS.notDraft}</Alert>}
      <Card variant="outlined">
        <CardContent>
          {blocked !== null ? (
            <Alert severity="info">{blocked}</Alert>
          ) : step === 1 || rfp === null ? (
            // Spec 001 §4 "after a successful submit" (step 1's, which creates or saves the RFP): step 2, or step 1
            // again for a non-standard RFP. The float ends the wizard: it opens the RFP's view (Step5Float).
            <Step1Opportunity rfp={rfp} onSaved={(answer, code) => savedThenGo(1, stepAfterSubmit(rfpType))(answer, code)} />
          ) : step === 2 ? (
            <Step2Properties rfp={rfp} onSaved={savedThenGo(2, 3)} />
          ) : step === 3 ? (
            <Step3Lanes
              rfp={rfp}
              onUploaded={(answer) => took(rfp.rfpCode, answer)}
              onNext={flags[4] ? () => navigate(rfpWizardPath(4, rfp.rfpCode)) : null}
            />
          ) : step === 4 ? (
            <Step4BaSelection rfp={rfp} onSaved={savedThenGo(4, 5)} />
          ) : (
            <Step5Float
              rfp={rfp}
              restore={!cleared.has(5)}
              onSaved={(answer) => {
                savedNow(5);
                took(rfp.rfpCode, answer);
              }}
            />
          )}
        </CardContent>
      </Card>
    </Box>
  );
};
