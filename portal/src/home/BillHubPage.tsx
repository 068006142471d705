import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useUser } from '../identity/session';

export const BILL_HUB_TEXT = 'The Bill-Hub opens here.';

/**
 * '/bill-hub' — where a Bill-Hub user lands (spec 000 §2: "Bill-Hub-only BA: the external bill page opens").
 * A placeholder until the Bill-Hub capability (document 2) exists.
 */
export function BillHubPage() {
  const user = useUser();
  return (
    <Stack spacing={3}>
      <Typography variant="h5" component="h1">
        Bill-Hub
      </Typography>
      <Alert severity="info">
        {BILL_HUB_TEXT} Welcome, {user.name}: your invoices and memos will be available on this page.
      </Alert>
    </Stack>
  );
}
