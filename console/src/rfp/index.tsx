import { CustomRoutes } from 'react-admin';
import { Route } from 'react-router-dom';
import { RFP_DASHBOARD_PATH, RFP_VIEW_PATH, RFP_WIZARD_PATH } from './paths';
import { RfpDashboard } from './RfpDashboard';
import { RfpView } from './RfpView';
import { RfpWizard } from './wizard/RfpWizard';

/**
 * The staff RFP screens (issue 10) as custom routes inside the layout: the spec's /rfp/MLL/dashboard and
 * /rfp/MLL/view/:id/:rfpType. Rendered for the RFP staff roles and the Auditor (mayReadRfps); actions check
 * their own roles. The wizard (/rfp/MLL/createRfp/:step) is for the RFP staff roles only (it says so to others).
 */
export const rfpApplication = () => (
  <CustomRoutes key="rfp-routes">
    <Route path={RFP_DASHBOARD_PATH} element={<RfpDashboard />} />
    <Route path={RFP_VIEW_PATH} element={<RfpView />} />
    <Route path={RFP_WIZARD_PATH} element={<RfpWizard />} />
  </CustomRoutes>
);

export { mayReadRfps } from './access';
export { RfpMenu } from './RfpMenu';
export { RFP_DASHBOARD_PATH, rfpViewPath } from './paths';
