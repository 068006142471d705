import {
  ArrayInput,
  CheckboxGroupInput,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  useGetIdentity,
  useGetList,
} from 'react-admin';
import { Box, Typography } from '@mui/material';
import { APPLICATIONS } from '../../../domain/src/identity/applications';
import type { ConsoleIdentity } from '../providers/authProvider';
import { ASSIGNABLE_ROLES } from './access';
import {
  validateApplications,
  validateCompanyCodes,
  validateEmail,
  validateMobile,
  validateName,
  validateRequired,
} from './validation';

type Company = { id: string; companyCode: string; name: string };

const APPLICATION_LABELS: Record<(typeof APPLICATIONS)[number], string> = {
  onboard: 'Onboarding (onboard)',
  RFP: 'RFP',
  BillHub: 'Bill-Hub (BillHub)',
  Complaint: 'Complaints (Complaint)',
  Dashboard: 'Dashboard',
  Masters: 'Masters',
  SAP: 'SAP',
};
const applicationChoices = APPLICATIONS.map((id) => ({ id, name: APPLICATION_LABELS[id] }));
const roleChoices = ASSIGNABLE_ROLES.map((role) => ({ id: role, name: role }));

/**
 * The company codes an admin can give: GET /api/companies, limited to the admin's own codes (the API refuses
 * any other). While the list loads, nothing is offered.
 */
const CompanyCodesInput = () => {
  const { identity } = useGetIdentity();
  const own = (identity as ConsoleIdentity | undefined)?.companyCodes ?? [];
  const { data: companies = [] } = useGetList<Company>('companies', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'companyCode', order: 'ASC' },
  });
  const choices = companies
    .filter((c) => own.includes(c.companyCode))
    .map((c) => ({ id: c.companyCode, name: `${c.companyCode} – ${c.name}` }));
  return (
    <CheckboxGroupInput
      source="companyCodes"
      label="Company codes"
      choices={choices}
      validate={validateCompanyCodes}
    />
  );
};

/**
 * The fields of a staff account, shared by Create and Edit. The e-mail id is what the user signs in with:
 * it is entered once, at creation; afterwards it changes only through the verified contact-change flow.
 */
export const UserInputs = ({ mode }: { mode: 'create' | 'edit' }) => (
  <Box sx={{ width: '100%', maxWidth: 720 }}>
    <TextInput source="name" label="Name" validate={validateName} fullWidth />
    {mode === 'create' ? (
      // Not type="email": the browser's own check would stop the form before the spec's message shows.
      <TextInput source="emailId" label="E-mail id" validate={validateEmail} fullWidth />
    ) : (
      <TextInput source="emailId" label="E-mail id" disabled fullWidth />
    )}
    <TextInput source="mobileNo" label="Mobile number" validate={validateMobile} fullWidth />
    <CompanyCodesInput />
    <Typography variant="subtitle2" sx={{ mt: 2 }}>
      Applications and roles
    </Typography>
    <ArrayInput source="applications" label={false} validate={validateApplications}>
      <SimpleFormIterator inline disableReordering>
        <SelectInput source="appId" label="Application" choices={applicationChoices} validate={validateRequired} />
        <SelectInput source="roleName" label="Role" choices={roleChoices} validate={validateRequired} />
      </SimpleFormIterator>
    </ArrayInput>
  </Box>
);
