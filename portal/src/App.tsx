import { Route, Routes } from 'react-router-dom';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { ApiProvider } from './api/ApiContext';
import type { ApiClient } from './api/client';
import { LoginPage } from './identity/LoginPage';
import { RequireBa } from './identity/RequireBa';
import { SessionProvider } from './identity/session';
import { CompanyDetailsPage } from './onboarding/CompanyDetailsPage';
import { StatusPage } from './onboarding/StatusPage';
import { ErrorBoundary } from './shared/ErrorBoundary';
import { FeedbackProvider } from './shared/feedback';
import { NotFoundPage, UnauthorisedPage } from './shared/pages';
import { theme } from './theme';

/**
 * The BA portal's routes (spec 000 §2). The router is the caller's: BrowserRouter in main, MemoryRouter in
 * tests.
 */
export function App({ client }: { client: ApiClient }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ErrorBoundary>
        <ApiProvider client={client}>
          <FeedbackProvider>
            <SessionProvider>
              <Routes>
                <Route path="/" element={<LoginPage />} />
                <Route element={<RequireBa />}>
                  <Route path="/onboard/status" element={<StatusPage />} />
                  <Route path="/onboard/ba-details/:action" element={<CompanyDetailsPage />} />
                </Route>
                <Route path="/401" element={<UnauthorisedPage />} />
                <Route path="*" element={<NotFoundPage />} />
              </Routes>
            </SessionProvider>
          </FeedbackProvider>
        </ApiProvider>
      </ErrorBoundary>
    </ThemeProvider>
  );
}
