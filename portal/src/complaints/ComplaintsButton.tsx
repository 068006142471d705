import Button from '@mui/material/Button';
import { useFeedback } from '../shared/feedback';

/** Spec 000 §1: the complaints application is a link elsewhere; inside the portal its menu says this. */
export const COMPLAINTS_COMING_SOON = 'Feature Coming Soon!!';

export function ComplaintsButton() {
  const { notify } = useFeedback();
  return (
    <Button color="inherit" onClick={() => notify(COMPLAINTS_COMING_SOON, 'info')} sx={{ flexShrink: 0 }}>
      Complaints
    </Button>
  );
}
