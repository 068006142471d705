import { MenuItem, TextField } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useAuthProvider, useGetIdentity, useNotify, useRefresh } from 'react-admin';
import { ALL_COMPANIES, type ConsoleAuthProvider, type ConsoleIdentity } from '../providers/authProvider';
import { errorText } from '../providers/httpClient';
import { useCompanyLabel } from '../shared/companies';
import { showsCompanySelector } from './access';

/** White text and outline on the coloured app bar. */
// A fixed width: react-admin's theme makes inputs full width, which stretched this across the app bar.
const onAppBarSx = {
  width: 200,
  flex: 'none',
  mr: 1,
  '& .MuiInputBase-root, & .MuiInputLabel-root, & .MuiSvgIcon-root': { color: 'inherit' },
  '& .MuiInputLabel-root.Mui-focused': { color: 'inherit' },
  '& .MuiOutlinedInput-notchedOutline, & .MuiInputBase-root:hover .MuiOutlinedInput-notchedOutline': {
    borderColor: 'rgba(255, 255, 255, 0.6)',
  },
} as const;

/**
 * Spec 000 §6: "Users can switch active company code; company codes narrow BA list queries". The choice goes
 * to PUT /api/me/active-company, whose answer is a new access token narrowed to it; then every list and
 * badge is read again under that token.
 */
export const CompanySelector = () => {
  const authProvider = useAuthProvider<ConsoleAuthProvider>();
  const { identity } = useGetIdentity();
  const refresh = useRefresh();
  const notify = useNotify();
  const companyLabel = useCompanyLabel();
  const change = useMutation({
    mutationFn: (code: string) => {
      if (!authProvider) throw new Error('There was a problem at our end');
      return authProvider.setActiveCompany(code);
    },
    // react-admin's refresh invalidates every query: the lists, the badges and the identity read again.
    onSuccess: () => refresh(),
    onError: (error: unknown) => notify(errorText(error), { type: 'error' }),
  });

  const user = identity as ConsoleIdentity | undefined;
  if (!user || !showsCompanySelector(user)) return null;
  const options = [ALL_COMPANIES, ...user.companyCodes];
  const chosen = (change.isPending ? change.variables : undefined) ?? user.activeCompanyCode;
  const value = options.includes(chosen) ? chosen : ALL_COMPANIES;
  return (
    <TextField
      select
      size="small"
      fullWidth={false}
      label="Company code"
      value={value}
      onChange={(event) => change.mutate(event.target.value)}
      disabled={change.isPending}
      sx={onAppBarSx}
    >
      <MenuItem value={ALL_COMPANIES}>All</MenuItem>
      {user.companyCodes.map((code) => (
        <MenuItem key={code} value={code}>
          {companyLabel(code)}
        </MenuItem>
      ))}
    </TextField>
  );
};
