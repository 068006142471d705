import { InvoiceListPage } from '../bill-hub/InvoiceListPage';
import { billHubTexts } from '../bill-hub/texts';

/** What '/bill-hub' shows first: the list's heading (routing tests look for it). */
export const BILL_HUB_TEXT = billHubTexts.listHeading;

/**
 * '/bill-hub' — where a Bill-Hub user lands (spec 000 §2: "Bill-Hub-only BA: the external bill page opens";
 * spec 001 §2): the BA's invoice list. The Bill-Hub's screens live in portal/src/bill-hub.
 */
export function BillHubPage() {
  return <InvoiceListPage />;
}
