import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import type { BankAccount } from '../../../domain/src/onboarding/items';
import type { BankAccountRow } from '../api/onboarding';
import { ConfirmDialog } from '../shared/ConfirmDialog';
import { useFeedback } from '../shared/feedback';
import { BankAccountForm } from './BankAccountForm';
import { useItems } from './ItemsContext';
import { lockedText, ReviewStatusView, TabIntro, useFailure, type Errors } from './itemFields';

export const MAX_ADDITIONAL_ACCOUNTS = 5;

export const bankTexts = {
  saved: 'Bank details saved successfully',
  added: 'Bank account added successfully',
  deleted: 'Bank account deleted successfully',
} as const;

/** Bank Details tab: the primary account, then any additional accounts (each reviewed by staff). */
export function BankDetailsTab() {
  const { lists, reload, api, masters, editable, canChange } = useItems();
  const { notify, withLoading } = useFeedback();
  const failed = useFailure();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<BankAccountRow | null>(null);
  const rows = lists.bankAccounts;
  if (!rows) return null;
  const primary = rows.find((r) => r.primary) ?? null;
  const additional = rows.filter((r) => !r.primary);

  const save = async (account: BankAccount, existing: BankAccountRow | null, message: string): Promise<Errors | null> => {
    try {
      await withLoading(
        () => (existing ? api.updateBankAccount(existing.id, account) : api.addBankAccount(account)),
        'Saving',
      );
      notify(message);
      await reload('bankAccounts');
      return null;
    } catch (e) {
      // Not null: the add dialog stays open whatever went wrong.
      let errors: Errors = {};
      failed(e, (found) => (errors = found));
      return errors;
    }
  };

  const remove = async (row: BankAccountRow) => {
    setDeleting(null);
    try {
      await withLoading(() => api.deleteBankAccount(row.id), 'Deleting');
      notify(bankTexts.deleted);
      await reload('bankAccounts');
    } catch (e) {
      failed(e);
    }
  };

  const primaryLocked = primary !== null && !canChange(primary.reviewStatus);

  return (
    <Stack spacing={3}>
      <TabIntro>The account payments go to. Add more accounts below if some places of business are paid elsewhere.</TabIntro>
      <Card component="section" aria-label="Primary bank account">
        <CardContent>
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 2 }}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              Primary bank account
            </Typography>
            <ReviewStatusView status={primary?.reviewStatus} remarks={primary?.reviewRemarks} testId="primary-review" />
          </Stack>
          {primaryLocked && editable && <Alert severity="info" sx={{ mb: 2 }}>{lockedText}</Alert>}
          <BankAccountForm
            key={primary?.updatedAt ?? 'new'}
            idPrefix="bank"
            label="Primary bank account"
            initial={primary}
            readOnly={!editable || primaryLocked}
            saveLabel="Save bank details"
            saveTestId="save-bankDetails"
            findBank={masters.bankByCode}
            onSave={(account) => save(account, primary, bankTexts.saved)}
          />
        </CardContent>
      </Card>

      <Card component="section" aria-label="Additional bank accounts">
        <CardContent>
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              Additional bank accounts
            </Typography>
            {editable && (
              <Button
                startIcon={<AddIcon />}
                onClick={() => setAdding(true)}
                disabled={!primary || additional.length >= MAX_ADDITIONAL_ACCOUNTS}
                data-testid="add-bank-account"
              >
                Add account
              </Button>
            )}
          </Stack>
          {!primary && editable && (
            <Typography variant="body2" color="text.secondary">
              Save the primary account first.
            </Typography>
          )}
          {additional.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              No additional accounts.
            </Typography>
          ) : (
            <Table size="small" aria-label="Additional bank accounts">
              <TableHead>
                <TableRow>
                  <TableCell>Account Number</TableCell>
                  <TableCell>IFSC</TableCell>
                  <TableCell>Bank</TableCell>
                  <TableCell>Account Holder</TableCell>
                  <TableCell>Review</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {additional.map((row) => (
                  <TableRow key={row.id} data-testid={`bank-account-${row.accountNo}`}>
                    <TableCell>{row.accountNo}</TableCell>
                    <TableCell>{row.ifscCode}</TableCell>
                    <TableCell>
                      {row.bankName}, {row.bankBranch}
                    </TableCell>
                    <TableCell>{row.accountName}</TableCell>
                    <TableCell>
                      <ReviewStatusView status={row.reviewStatus} remarks={row.reviewRemarks} />
                    </TableCell>
                    <TableCell align="right">
                      {canChange(row.reviewStatus) && (
                        <Button color="error" size="small" onClick={() => setDeleting(row)} aria-label={`Delete account ${row.accountNo}`}>
                          Delete
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>

      <Dialog open={adding} onClose={() => setAdding(false)} maxWidth="md" fullWidth aria-labelledby="add-account-title">
        <DialogTitle id="add-account-title">Add a bank account</DialogTitle>
        <DialogContent>
          {adding && (
            <BankAccountForm
              idPrefix="extra-bank"
              label="Additional bank account"
              initial={null}
              saveLabel="Add account"
              saveTestId="save-additional-bank-account"
              findBank={masters.bankByCode}
              extraActions={<Button onClick={() => setAdding(false)}>Cancel</Button>}
              onSave={async (account) => {
                const errors = await save(account, null, bankTexts.added);
                if (!errors) setAdding(false);
                return errors;
              }}
            />
          )}
        </DialogContent>
      </Dialog>

      <ConfirmDialog
        open={deleting !== null}
        title="Delete this bank account?"
        confirmLabel="Delete"
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      >
        {deleting ? `Account ${deleting.accountNo} (${deleting.bankName}) will be removed.` : ''}
      </ConfirmDialog>
    </Stack>
  );
}
