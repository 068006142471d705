import { useState } from 'react';
import { Box, Button, Stack, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { usePermissions } from 'react-admin';
import { mayReviewStage } from '../../../../domain/src/identity/roles';
import { useCompanyLabel } from '../../shared/companies';
import { SectionCard } from '../../shared/SectionCard';
import type { BusinessAssociate } from '../../shared/types';
import { useDecision, type Verb } from '../decision';
import { DecisionDialog } from '../DecisionDialog';
import { StatusChip, stageLabel } from '../StatusChip';
import { SectionState } from './SectionState';
import type { CompanyCodeRow } from './types';
import { useBaItems } from './useBaItems';

/** Approve / Reject of another company code's application: the same two stages, keyed by the code. */
const CodeDecision = ({ record, row, verb }: { record: BusinessAssociate; row: CompanyCodeRow; verb: Verb }) => {
  const [open, setOpen] = useState(false);
  const decision = useDecision(record, verb, () => setOpen(false));
  const stage = row.stage!;
  const approve = verb === 'approve';
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        color={approve ? 'success' : 'error'}
        aria-label={`${approve ? 'Approve' : 'Reject'} company code ${row.companyCode} stage ${stage}`}
        data-testid={`${verb}-code-${row.companyCode}`}
        onClick={() => {
          decision.reset();
          setOpen(true);
        }}
      >
        {approve ? `Approve stage ${stage}` : 'Reject'}
      </Button>
      <DecisionDialog
        open={open}
        title={`${approve ? 'Approve' : 'Reject'} company code ${row.companyCode} at stage ${stage}`}
        text={
          approve
            ? 'The application for this company code moves on; the other codes are not affected.'
            : 'The business associate sees these remarks for this company code.'
        }
        confirmLabel={approve ? 'Approve' : 'Reject'}
        confirmColor={approve ? 'success' : 'error'}
        remarksRequired={!approve}
        isPending={decision.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={(remarks) => decision.submit({ stage, remarks, companyCode: row.companyCode })}
      />
    </>
  );
};

/**
 * The BA's applications per company code (spec 000 §4: onboarding status by company code). The first code is
 * decided with the page's own buttons; another code the BA applied for is decided here.
 */
export const CompanyCodesSection = ({ record }: { record: BusinessAssociate }) => {
  const { data, isPending, error } = useBaItems(record.id, 'company-codes');
  const { permissions } = usePermissions<string[]>();
  const companyLabel = useCompanyLabel();
  const rows = data ?? [];
  const others = rows.filter((r) => r.companyCode !== record.companyCode);
  if (!isPending && !error && others.length === 0) return null;
  return (
    <SectionCard title="Company codes">
      <SectionState isPending={isPending} error={error} empty={rows.length === 0} emptyText="No application." what="company codes">
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Company codes">
            <TableHead>
              <TableRow>
                <TableCell>Company code</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Stage</TableCell>
                <TableCell>Remarks</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => {
                const first = row.companyCode === record.companyCode;
                const decidable =
                  !first &&
                  row.status === 'inprogress' &&
                  (row.stage === 1 || row.stage === 2) &&
                  mayReviewStage(permissions ?? [], row.stage);
                return (
                  <TableRow key={row.companyCode} data-testid={`company-code-${row.companyCode}`}>
                    <TableCell>
                      {companyLabel(row.companyCode)}
                      {first && ' (first application)'}
                    </TableCell>
                    <TableCell>
                      <StatusChip status={row.status} />
                    </TableCell>
                    <TableCell>{row.status === 'inprogress' ? stageLabel(row.stage) : '—'}</TableCell>
                    <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{row.remarks ?? '—'}</TableCell>
                    <TableCell align="right">
                      {decidable && (
                        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                          <CodeDecision record={record} row={row} verb="reject" />
                          <CodeDecision record={record} row={row} verb="approve" />
                        </Stack>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Box>
      </SectionState>
    </SectionCard>
  );
};
