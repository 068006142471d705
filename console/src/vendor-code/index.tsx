import { CustomRoutes } from 'react-admin';
import { Route } from 'react-router-dom';
import { BlockList } from '../block/BlockList';
import { MassUploadPage } from '../mass-upload/MassUploadPage';
import { NucleusVendorList } from '../nucleus-vendor/NucleusVendorList';
import { NucleusVendorShow } from '../nucleus-vendor/NucleusVendorShow';
import { OtherCompanyVendorCodePage, UtilityVendorCodePage } from '../vendor-code-workbook/WorkbookPage';
import {
  BLOCKS_PATH,
  CREATE_OTHER_COMPANY_PATH,
  CREATE_UTILITY_PATH,
  MASS_UPLOAD_PATH,
  NUCLEUS_VIEW_PATH,
  ONBOARD_NUCLEUS_LIST_PATH,
  ONBOARD_NUCLEUS_VIEW_PATH,
  SAP_CHILD_CODE_PATH,
  SAP_DASHBOARD_PATH,
  SAP_PARENT_CODE_PATH,
  SAP_VIEW_PATH,
} from './paths';
import { SapBaPage, ToSapView } from './SapBaPage';
import { SapDashboard, SapDashboardHome } from './SapDashboard';

/**
 * The SAP area's screens (issue 9) as custom routes inside the layout: the spec's /sap/… routes, the Onboard
 * sidebar's Nucleus list (/onboard/nucleus/view[/:panNo]), the block requests queue and the mass upload page.
 * Rendered for staff and auditors (see mayReadSap); the pages for one role check it themselves.
 */
export const sapApplication = () => (
  <CustomRoutes key="sap-routes">
    <Route path={SAP_DASHBOARD_PATH} element={<SapDashboardHome />} />
    <Route path={`${SAP_DASHBOARD_PATH}/:type`} element={<SapDashboard />} />
    <Route path={SAP_VIEW_PATH} element={<SapBaPage />} />
    <Route path={SAP_PARENT_CODE_PATH} element={<ToSapView />} />
    <Route path={SAP_CHILD_CODE_PATH} element={<ToSapView />} />
    <Route path={NUCLEUS_VIEW_PATH} element={<NucleusVendorShow />} />
    <Route path={ONBOARD_NUCLEUS_LIST_PATH} element={<NucleusVendorList />} />
    <Route path={ONBOARD_NUCLEUS_VIEW_PATH} element={<NucleusVendorShow />} />
    <Route path={CREATE_UTILITY_PATH} element={<UtilityVendorCodePage />} />
    <Route path={CREATE_OTHER_COMPANY_PATH} element={<OtherCompanyVendorCodePage />} />
    <Route path={BLOCKS_PATH} element={<BlockList />} />
    <Route path={MASS_UPLOAD_PATH} element={<MassUploadPage />} />
  </CustomRoutes>
);

export { mayReadSap } from './access';
export { SapMenu, OnboardSapEntries } from './SapMenu';
export { SapLinkButton } from './SapLinkButton';
export { SapModuleButton } from './SapModuleButton';
