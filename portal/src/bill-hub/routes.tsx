import { Outlet, Route } from 'react-router-dom';
import { BillHubPage } from '../home/BillHubPage';
import { RequireApp } from '../identity/guards';
import { CreateMemoPage } from './CreateMemoPage';
import { InvoicePage } from './InvoicePage';
import {
  BILL_HUB_HOME_PATH,
  BILL_HUB_PATH,
  CREATE_MEMO_PATH,
  INVOICE_PATH,
  PRINT_MEMO_PATH,
  VIEW_MEMO_PATH,
} from './paths';
import { PrintMemoPage } from './PrintMemoPage';
import { ViewMemoPage } from './ViewMemoPage';

/**
 * The Bill-Hub's routes (spec 001 §2), all behind the Bill-Hub application: Bill-Hub-only users (child GST
 * state users) land here and reach nothing else. '/bill-hub/invoice/new' is the ':id' route with id "new".
 * An element, not a component: <Routes> reads its children's props.
 */
export const billHubRoutes = (
  <Route
    element={
      <RequireApp app="BillHub">
        <Outlet />
      </RequireApp>
    }
  >
    <Route path={BILL_HUB_PATH} element={<BillHubPage />} />
    <Route path={BILL_HUB_HOME_PATH} element={<BillHubPage />} />
    <Route path={INVOICE_PATH} element={<InvoicePage />} />
    <Route path={CREATE_MEMO_PATH} element={<CreateMemoPage />} />
    <Route path={VIEW_MEMO_PATH} element={<ViewMemoPage />} />
    <Route path={PRINT_MEMO_PATH} element={<PrintMemoPage />} />
  </Route>
);
