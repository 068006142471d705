import { useEffect, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import { releaseMessages, releaseTitle, type ReleaseEntry } from '../../../domain/src/releases/fields';
import { formatDate } from '../../../domain/src/shared/format';
import { useApi } from '../api/ApiContext';
import { isApiError, messageOf } from '../api/client';
import { releasesApi, type Release } from './api';

export const RELEASE_PAGE_PATH = '/newFeaturesList/:versionReleased/:deviceType';

export const releasePageTexts = {
  releasedOn: 'Release date',
  newFeatures: 'New features',
  bugFixes: 'Bug fixes',
  noNewFeatures: 'No new features in this release.',
  noBugFixes: 'No bug fixes in this release.',
  notFound: releaseMessages.notFound,
  notFoundText: 'There is no release note for this version and device type. It may have been withdrawn.',
} as const;

type Loaded =
  | { state: 'loading' }
  | { state: 'found'; release: Release }
  | { state: 'missing' }
  | { state: 'failed'; message: string };

type EntriesProps = { title: string; entries: ReleaseEntry[]; empty: string; releasedOn: string };

function Entries({ title, entries, empty, releasedOn }: EntriesProps) {
  const id = `release-${title.replace(/\s+/g, '-').toLowerCase()}`;
  return (
    <Box component="section" aria-labelledby={id} sx={{ mt: 3 }}>
      <Typography id={id} variant="h6" component="h2">
        {title}
      </Typography>
      {entries.length === 0 ? (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {empty}
        </Typography>
      ) : (
        <List dense disablePadding sx={{ listStyle: 'disc', pl: 3 }}>
          {entries.map((e, i) => (
            <ListItem key={i} sx={{ display: 'list-item', pl: 0.5, py: 0.25 }}>
              <ListItemText
                primary={e.featureDesc}
                // An entry's own date only when it differs from the release's.
                secondary={e.releasedOn !== releasedOn ? formatDate(e.releasedOn) : undefined}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}

/**
 * The release notes screen (spec 000 §2): public, no login. The release date as DD-MMM-YYYY, the new
 * features and the bug fixes; "Release not found" for a version and device type without a release.
 */
export function ReleasePage() {
  const { versionReleased = '', deviceType = '' } = useParams();
  const client = useApi();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  useEffect(() => {
    let live = true;
    setLoaded({ state: 'loading' });
    void releasesApi(client)
      .release(versionReleased, deviceType)
      .then(
        (release) => live && setLoaded({ state: 'found', release }),
        (e: unknown) =>
          live &&
          setLoaded(
            isApiError(e) && e.status === 404 ? { state: 'missing' } : { state: 'failed', message: messageOf(e) },
          ),
      );
    return () => {
      live = false;
    };
  }, [client, versionReleased, deviceType]);

  useEffect(() => {
    if (loaded.state === 'found') document.title = releaseTitle(loaded.release);
  }, [loaded]);

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <AppBar position="static" elevation={0}>
        <Toolbar sx={{ gap: 1.5 }}>
          <LocalShippingIcon aria-hidden />
          <Typography variant="h6" component="div" sx={{ flexGrow: 1 }}>
            BA Portal
          </Typography>
          <Button component={RouterLink} to="/" color="inherit">
            Home
          </Button>
        </Toolbar>
      </AppBar>
      <Container component="main" maxWidth="md" sx={{ py: { xs: 3, sm: 5 } }}>
        <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
          {loaded.state === 'loading' && (
            <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
              <CircularProgress aria-label="Loading" />
            </Box>
          )}
          {loaded.state === 'missing' && (
            <>
              <Typography variant="h5" component="h1">
                {releasePageTexts.notFound}
              </Typography>
              <Typography color="text.secondary" sx={{ mt: 1 }}>
                {releasePageTexts.notFoundText}
              </Typography>
            </>
          )}
          {loaded.state === 'failed' && (
            <Typography role="alert" color="error">
              {loaded.message}
            </Typography>
          )}
          {loaded.state === 'found' && (
            <>
              <Typography variant="h5" component="h1">
                {releaseTitle(loaded.release)}
              </Typography>
              <Typography color="text.secondary" sx={{ mt: 1 }}>
                {releasePageTexts.releasedOn}:{' '}
                <strong data-testid="release-date">{formatDate(loaded.release.releasedOn)}</strong>
              </Typography>
              <Entries
                title={releasePageTexts.newFeatures}
                entries={loaded.release.newFeatures}
                empty={releasePageTexts.noNewFeatures}
                releasedOn={loaded.release.releasedOn}
              />
              <Entries
                title={releasePageTexts.bugFixes}
                entries={loaded.release.bugFixes}
                empty={releasePageTexts.noBugFixes}
                releasedOn={loaded.release.releasedOn}
              />
            </>
          )}
        </Paper>
      </Container>
    </Box>
  );
}
