import {
  Admin,
  CustomRoutes,
  Resource,
  defaultI18nProvider,
  localStorageStore,
  type AuthProvider,
  type DataProvider,
  type Store,
} from 'react-admin';
import { Route } from 'react-router-dom';
import { businessAssociates } from './onboarding';
import { additionalDocuments } from './onboarding/additional-documents';
import { VIEW_ALL_DOCUMENTS_PATH, ViewAllDocuments } from './onboarding/ViewAllDocuments';
import { tasks, hasReviewerRole } from './tasks';
import { users, mayManageUsers } from './users';
import { auditSearch, mayReadEventHistory } from './audit';
import { annexures, mayManageAnnexures } from './annexures';
import { releases, mayManageReleases } from './releases';
import { mastersApplication, mayUseMasters } from './masters';
import { mayReadSap, sapApplication } from './vendor-code';
import { mayReadRfps, rfpApplication } from './rfp';
import { billHubResources, mayReadBillHub } from './bill-hub';
import { ChangePasswordPage } from './identity';
import { CHANGE_PASSWORD_PATH, ConsoleLayout, ConsoleNotification, LoginPage } from './layout';
import { authProvider as defaultAuthProvider } from './providers/authProvider';
import { dataProvider as defaultDataProvider } from './providers/dataProvider';
import { theme } from './theme';

/** Providers and store are replaceable so UI tests can run the real app against test doubles. */
export type AppProps = { dataProvider?: DataProvider; authProvider?: AuthProvider; store?: Store };

const defaultStore = localStorageStore('1', 'ba-console');

/**
 * The staff console. Reviewers land on "My Pending Task"; auditors and other staff, who have no review
 * tasks, on the BA list; MLL-ADMIN also manages the staff users. The store is namespaced so list preferences
 * survive a reload without clashing with anything else on the origin.
 *
 * No `requireAuth`: the layout's SessionGate sends a visitor without a session to the sign-in page with one
 * redirect (react-admin's requireAuth loops on it, see SessionGate). Every screen is inside the layout, or,
 * like the change-password page, behind a SessionGate of its own.
 */
export const App = ({
  dataProvider = defaultDataProvider,
  authProvider = defaultAuthProvider,
  store = defaultStore,
}: AppProps) => (
  <Admin
    title="BA Onboarding Console"
    dataProvider={dataProvider}
    authProvider={authProvider}
    i18nProvider={defaultI18nProvider}
    store={store}
    layout={ConsoleLayout}
    loginPage={LoginPage}
    notification={ConsoleNotification}
    theme={theme}
    darkTheme={null}
    disableTelemetry
  >
    <CustomRoutes noLayout>
      <Route path={CHANGE_PASSWORD_PATH} element={<ChangePasswordPage />} />
    </CustomRoutes>
    <CustomRoutes>
      <Route path={VIEW_ALL_DOCUMENTS_PATH} element={<ViewAllDocuments />} />
    </CustomRoutes>
    {(permissions: string[] | undefined) => [
      hasReviewerRole(permissions ?? []) ? <Resource key="tasks" {...tasks} /> : null,
      <Resource key="business-associates" {...businessAssociates} />,
      <Resource key="additional-documents" {...additionalDocuments} />,
      mayManageUsers(permissions) ? <Resource key="users" {...users} /> : null,
      mayReadEventHistory(permissions) ? <Resource key="audit" {...auditSearch} /> : null,
      mayManageAnnexures(permissions) ? <Resource key="annexures" {...annexures} /> : null,
      mayManageReleases(permissions) ? <Resource key="releases" {...releases} /> : null,
      ...(mayUseMasters(permissions) ? mastersApplication() : []),
      mayReadSap(permissions) ? sapApplication() : null,
      mayReadRfps(permissions) ? rfpApplication() : null,
      ...(mayReadBillHub(permissions) ? billHubResources() : []),
    ]}
  </Admin>
);
