import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useSession } from '../identity/session';

export const pageTexts = {
  unauthorisedTitle: "Oops! You're Unauthorised.",
  unauthorisedText: "You don't have enough rights to view this page.",
  notFoundTitle: 'Page not found',
  notFoundText: 'The page you are looking for does not exist.',
  workInProgressTitle: 'Work in progress',
  workInProgressText: 'This page is on its way. Please check back soon.',
} as const;

function Message({ title, text }: { title: string; text: string }) {
  // '/' sends a signed-in user on to their home (post-login routing), a visitor to the login form.
  const { user } = useSession();
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeContent: 'center', textAlign: 'center', gap: 2, p: 3 }}
    >
      <Typography variant="h4" component="h1">
        {title}
      </Typography>
      <Typography color="text.secondary">{text}</Typography>
      <Box>
        <Button component={RouterLink} to="/" variant="contained">
          {user ? 'Go to home' : 'Go to login'}
        </Button>
      </Box>
    </Box>
  );
}

/** Spec 000 §2, route /401. */
export function UnauthorisedPage() {
  return <Message title={pageTexts.unauthorisedTitle} text={pageTexts.unauthorisedText} />;
}

/** Spec 000 §2: any unknown route (the spec gives no wording). */
export function NotFoundPage() {
  return <Message title={pageTexts.notFoundTitle} text={pageTexts.notFoundText} />;
}

/** Spec 000 §2, route /workInProgress: the placeholder page. */
export function WorkInProgressPage() {
  return <Message title={pageTexts.workInProgressTitle} text={pageTexts.workInProgressText} />;
}
