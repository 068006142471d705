import { Navigate, Route, Routes, useParams } from 'react-router-dom';
import { ResourceContextProvider } from 'react-admin';
import type { MasterDefinition } from '../../../domain/src/masters/definitions';
import { MasterCreate } from './MasterCreate';
import { MasterEdit } from './MasterEdit';
import { MasterList } from './MasterList';
import { masterCreatePath, masterEditPath, masterListPath } from './paths';

/**
 * The screens of one master under /meta-data/<consolePath>, laid out as react-admin lays out a resource
 * (list, create/, :id/) inside the resource's context, so lists, forms and references talk to the API
 * resource (`cities`) while the address is the spec's (/meta-data/city).
 */
export const MasterRoutes = ({ def }: { def: MasterDefinition }) => (
  <ResourceContextProvider value={def.resource}>
    <Routes>
      <Route path="create/*" element={<MasterCreate def={def} />} />
      <Route path=":id/*" element={<MasterEdit def={def} />} />
      <Route path="/*" element={<MasterList def={def} />} />
    </Routes>
  </ResourceContextProvider>
);

/** The resource's own react-admin routes (/cities, /cities/create, /cities/:id) lead to the spec's. */
export const ToList = ({ def }: { def: MasterDefinition }) => <Navigate to={masterListPath(def)} replace />;
export const ToCreate = ({ def }: { def: MasterDefinition }) => <Navigate to={masterCreatePath(def)} replace />;
export const ToEdit = ({ def }: { def: MasterDefinition }) => {
  const { id } = useParams();
  return <Navigate to={id ? masterEditPath(def, id) : masterListPath(def)} replace />;
};
