import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { AnnexuresPage, PO_POLICY_PATH } from './annexures/AnnexuresPage';
import { ApiProvider } from './api/ApiContext';
import type { ApiClient } from './api/client';
import { CONTACT_CHANGE_PATH, ContactChangePage } from './contact-change/ContactChangePage';
import { billHubRoutes } from './bill-hub/routes';
import { HomePage } from './home/HomePage';
import { PERFORMANCE_PATH, PERFORMANCE_ROLE_PATH } from './performance/paths';
import { ChangePasswordPage } from './identity/ChangePasswordPage';
import { ForgotPasswordPage } from './identity/ForgotPasswordPage';
import { RequireBa, RequireBaAdmin, RequireSession } from './identity/guards';
import { LoginPage } from './identity/LoginPage';
import { ResetPasswordPage } from './identity/ResetPasswordPage';
import { SessionProvider } from './identity/session';
import { VerifyRegistrationPage } from './identity/VerifyRegistrationPage';
import { ADDITIONAL_DOCS_PATH, AdditionalDocumentsPage } from './onboarding/AdditionalDocumentsPage';
import { OnboardingPage } from './onboarding/OnboardingPage';
import { COMPANY_CODES_PATH, CompanyCodesPage, EDIT_PROFILE_PATH, EditProfilePage } from './onboarding/ProfilePages';
import { StatusPage } from './onboarding/StatusPage';
import { RELEASE_PAGE_PATH, ReleasePage } from './releases/ReleasePage';
import { BaRfpDashboard } from './rfp/BaRfpDashboard';
import { RFP_BA_DASHBOARD_PATH, RFP_BA_VIEW_PATH } from './rfp/paths';
import { RfpLayout } from './rfp/RfpLayout';
import { ErrorBoundary } from './shared/ErrorBoundary';
import { LeaveProvider, type Leave } from './shared/external';
import { FeedbackProvider } from './shared/feedback';
import { NotFoundPage, UnauthorisedPage, WorkInProgressPage } from './shared/pages';
import { theme } from './theme';
import { BaUsersPage } from './users/BaUsersPage';

/** The RFP view carries AG Grid (its own chunk): loaded when a BA opens an RFP, not with every page. */
const BaRfpView = lazy(() => import('./rfp/BaRfpView').then((m) => ({ default: m.BaRfpView })));
// The charts library is large: the dashboard loads with its own chunk.
const PerformanceDashboard = lazy(() => import('./performance/PerformanceDashboard').then((m) => ({ default: m.PerformanceDashboard })));
import { BillHubUsersPage } from './users/BillHubUsersPage';

/**
 * The BA portal's routes (spec 000 §2). The router is the caller's: BrowserRouter in main, MemoryRouter in
 * tests. `leave` takes the browser to another application (tests pass a spy).
 */
export function App({ client, leave }: { client: ApiClient; leave?: Leave }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ErrorBoundary>
        <ApiProvider client={client}>
          <LeaveProvider leave={leave}>
            <FeedbackProvider>
              <SessionProvider>
                <Routes>
                  <Route path="/" element={<LoginPage />} />
                  <Route path="/signup" element={<LoginPage />} />
                  <Route path="/signup/verify-registration" element={<VerifyRegistrationPage />} />
                  <Route path="/forgot-password" element={<ForgotPasswordPage />} />
                  <Route path="/reset-password/:token" element={<ResetPasswordPage />} />
                  <Route path={CONTACT_CHANGE_PATH} element={<ContactChangePage />} />
                  <Route element={<RequireSession />}>
                    <Route path="/change-password" element={<ChangePasswordPage />} />
                    {/* [issue 11: bill-hub routes] */}
                    {billHubRoutes}
                    <Route element={<RequireBa />}>
                      <Route path="/onboard/status" element={<StatusPage />} />
                      <Route path="/onboard/ba-details/:action" element={<OnboardingPage />} />
                      <Route path={ADDITIONAL_DOCS_PATH} element={<AdditionalDocumentsPage />} />
                      <Route path="/home" element={<HomePage />} />
                      {/* [issue 11: performance routes] */}
                      <Route path={PERFORMANCE_PATH} element={<Suspense fallback={null}><PerformanceDashboard /></Suspense>} />
                      <Route path={PERFORMANCE_ROLE_PATH} element={<Suspense fallback={null}><PerformanceDashboard /></Suspense>} />
                      <Route path={PO_POLICY_PATH} element={<AnnexuresPage />} />
                      {/* The BA's RFPs (spec 001 §2): a verified BA's, with the RFP sidebar. */}
                      <Route element={<RfpLayout />}>
                        <Route path={RFP_BA_DASHBOARD_PATH} element={<BaRfpDashboard />} />
                        <Route
                          path={RFP_BA_VIEW_PATH}
                          element={
                            <Suspense fallback={null}>
                              <BaRfpView />
                            </Suspense>
                          }
                        />
                      </Route>
                      <Route element={<RequireBaAdmin />}>
                        <Route path="/onboard/BA/add-new-ba-user" element={<BaUsersPage />} />
                        <Route path="/onboard/BA/add-childBillHub-user" element={<BillHubUsersPage />} />
                        <Route path={EDIT_PROFILE_PATH} element={<EditProfilePage />} />
                        <Route path={COMPANY_CODES_PATH} element={<CompanyCodesPage />} />
                      </Route>
                    </Route>
                  </Route>
                  <Route path="/401" element={<UnauthorisedPage />} />
                  <Route path="/workInProgress" element={<WorkInProgressPage />} />
                  {/* Release notes: public, no login (spec 000 §2). */}
                  <Route path={RELEASE_PAGE_PATH} element={<ReleasePage />} />
                  <Route path="*" element={<NotFoundPage />} />
                </Routes>
              </SessionProvider>
            </FeedbackProvider>
          </LeaveProvider>
        </ApiProvider>
      </ErrorBoundary>
    </ThemeProvider>
  );
}
