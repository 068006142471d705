import { Resource } from 'react-admin';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import DescriptionIcon from '@mui/icons-material/Description';
import { INVOICES_RESOURCE, MEMOS_RESOURCE } from './api';
import { InvoiceList } from './InvoiceList';
import { InvoiceShow } from './InvoiceShow';
import { MemoList } from './MemoList';
import { MemoShow } from './MemoShow';

/**
 * Bill-Hub for staff (issue 11): the `invoices` and `memos` resources (simple-rest lists, show pages with the
 * commands). Registered for every staff role and the Auditor (mayReadBillHub); the API scopes the rows to
 * the user's company codes and each command checks its roles.
 */
export const billHubResources = () => [
  <Resource
    key={INVOICES_RESOURCE}
    name={INVOICES_RESOURCE}
    list={InvoiceList}
    show={InvoiceShow}
    icon={ReceiptLongIcon}
    options={{ label: 'Invoices' }}
    recordRepresentation="invoiceNumber"
  />,
  <Resource
    key={MEMOS_RESOURCE}
    name={MEMOS_RESOURCE}
    list={MemoList}
    show={MemoShow}
    icon={DescriptionIcon}
    options={{ label: 'Memos' }}
    recordRepresentation="memoNumber"
  />,
];

export { mayReadBillHub } from './access';
export { BillHubMenu } from './BillHubMenu';
