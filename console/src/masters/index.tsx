import { CustomRoutes, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import { MASTERS } from '../../../domain/src/masters/definitions';
import { MasterRoutes, ToCreate, ToEdit, ToList } from './MasterRoutes';
import { MastersDashboard } from './MastersDashboard';
import { MASTERS_DASHBOARD_PATH, masterListPath } from './paths';

/**
 * The Masters application (spec 000 §2, §3 "Master data", §7), generic over MASTERS: one react-admin
 * resource per master under the API's name (`cities`), its screens at /meta-data/<consolePath>, and the
 * Masters dashboard. react-admin fixes a resource's routes to /<name>, so the resource's own routes only
 * redirect to the spec's (anything react-admin links by itself still lands there), and the screens are
 * custom routes. Rendered for MLL-ADMIN and MDM only (see `mayUseMasters`).
 */
export const mastersApplication = () => [
  ...MASTERS.map((def) => (
    <Resource
      key={`master-${def.resource}`}
      name={def.resource}
      list={<ToList def={def} />}
      create={<ToCreate def={def} />}
      edit={<ToEdit def={def} />}
      options={{ label: def.label }}
      recordRepresentation={def.display}
    />
  )),
  <CustomRoutes key="masters-routes">
    <Route path={MASTERS_DASHBOARD_PATH} element={<MastersDashboard />} />
    {MASTERS.map((def) => (
      <Route key={def.resource} path={`${masterListPath(def)}/*`} element={<MasterRoutes def={def} />} />
    ))}
  </CustomRoutes>,
];

export { mayUseMasters, MASTERS_ROLES } from './access';
export { MastersMenu } from './MastersMenu';
export type { MasterDataProvider } from './dataProvider';
export { masterMethods } from './dataProvider';
export { MASTERS_DASHBOARD_PATH, masterListPath, masterCreatePath, masterEditPath } from './paths';
