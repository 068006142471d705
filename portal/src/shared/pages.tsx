import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';

function Message({ title, text }: { title: string; text: string }) {
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
          Go to login
        </Button>
      </Box>
    </Box>
  );
}

/** Spec 000 §2, route /401. */
export function UnauthorisedPage() {
  return (
    <Message title="Oops! You're Unauthorised." text="You don't have enough rights to view this page." />
  );
}

export function NotFoundPage() {
  return <Message title="Page not found" text="The page you are looking for does not exist." />;
}
