import { Box, Chip, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { display } from '../../../../domain/src/shared/format';
import { SectionCard } from '../../shared/SectionCard';
import type { BusinessAssociate } from '../../shared/types';
import { itemReviewOpen } from './access';
import { ItemReviewButtons } from './ItemReviewButtons';
import { ReviewStatusChip } from './ReviewStatusChip';
import { SectionState } from './SectionState';
import { useBaItems } from './useBaItems';
import { stickyActionsCell } from './tableStyles';

export const BANK_MESSAGES = {
  approved: 'Bank account verified successfully',
  rejected: 'Bank account rejected successfully',
};

/** The primary and additional bank accounts, each verified or rejected by staff on its own. */
export const BankAccountsSection = ({ record, canReview }: { record: BusinessAssociate; canReview: boolean }) => {
  const { data, isPending, error } = useBaItems(record.id, 'bank-accounts');
  const rows = data ?? [];
  return (
    <SectionCard title="Bank accounts">
      <SectionState isPending={isPending} error={error} empty={rows.length === 0} emptyText="No bank account yet." what="bank accounts">
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Bank accounts">
            <TableHead>
              <TableRow>
                <TableCell>Account</TableCell>
                <TableCell>Account no.</TableCell>
                <TableCell>IFSC</TableCell>
                <TableCell>MICR</TableCell>
                <TableCell>Account name</TableCell>
                <TableCell>Bank / branch</TableCell>
                <TableCell>Review</TableCell>
                <TableCell align="right" sx={stickyActionsCell}>Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((account) => {
                const open = canReview && itemReviewOpen(record, account.primary ? 'bank' : 'additional-bank');
                const name = `bank account ${account.accountNo}`;
                return (
                  <TableRow key={account.id} data-testid={`bank-account-${account.id}`}>
                    <TableCell>
                      <Chip size="small" label={account.primary ? 'Primary' : 'Additional'} variant="outlined" />
                    </TableCell>
                    <TableCell>{account.accountNo}</TableCell>
                    <TableCell>{account.ifscCode}</TableCell>
                    <TableCell>{display(account.micrNo)}</TableCell>
                    <TableCell>{account.accountName}</TableCell>
                    <TableCell>
                      {account.bankName} / {account.bankBranch}
                    </TableCell>
                    <TableCell>
                      <ReviewStatusChip status={account.reviewStatus} remarks={account.reviewRemarks} />
                    </TableCell>
                    <TableCell align="right" sx={stickyActionsCell}>
                      {open && (
                        <ItemReviewButtons
                          baId={record.id}
                          itemPath={`bank-accounts/${encodeURIComponent(account.id)}`}
                          itemName={name}
                          reviewStatus={account.reviewStatus}
                          approveWith={{ kind: 'confirm' }}
                          messages={BANK_MESSAGES}
                          testId={`bank-${account.id}`}
                        />
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
