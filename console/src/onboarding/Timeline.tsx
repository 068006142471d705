import { Box, Chip, Step, StepContent, StepLabel, Stepper, Typography } from '@mui/material';
import { formatDateTime } from '../../../domain/src/shared/format';
import type { ActivityEntry, BusinessAssociate } from '../shared/types';
import { SectionCard } from '../shared/SectionCard';
import { timelineSteps } from './timeline';

/** The onboarding timeline of the BA page (see timeline.ts for how the steps are derived). */
export const Timeline = ({ record, log }: { record: BusinessAssociate; log: readonly ActivityEntry[] }) => {
  const steps = timelineSteps(record, log);
  return (
    <SectionCard title="Timeline">
      <Stepper orientation="vertical" nonLinear activeStep={-1} aria-label="Onboarding timeline">
        {steps.map((step) => (
          <Step
            key={step.key}
            completed={step.state === 'done'}
            active={step.state === 'current'}
            expanded={step.state !== 'waiting' && step.state !== 'skipped'}
          >
            <StepLabel
              error={step.state === 'rejected'}
              optional={
                step.at ? (
                  <Typography variant="caption" color="text.secondary">
                    {formatDateTime(step.at)}
                  </Typography>
                ) : undefined
              }
            >
              <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
                {step.label}
                {step.state === 'current' && <Chip size="small" color="info" label="Current" />}
                {step.state === 'skipped' && <Chip size="small" label="Not reached" />}
                {step.overdue && <Chip size="small" color="warning" label="Overdue" />}
              </Box>
            </StepLabel>
            <StepContent>
              {step.note && <Typography variant="body2">{step.note}</Typography>}
              {step.by && (
                <Typography variant="body2" color="text.secondary">
                  By {step.by}
                </Typography>
              )}
              {step.remarks && (
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', mt: 0.5 }}>
                  Remarks: {step.remarks}
                </Typography>
              )}
            </StepContent>
          </Step>
        ))}
      </Stepper>
    </SectionCard>
  );
};
