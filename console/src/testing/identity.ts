import type { Me } from '../shared/types';

/** A session's user as GET /api/me answers it. */
export const me = (over: Partial<Me> = {}): Me => ({
  id: 'user-1',
  username: 'procurement@demo.test',
  name: 'Test Reviewer',
  emailId: 'procurement@demo.test',
  mobileNo: '9876501234',
  roles: ['MLL Procurement'],
  applications: [{ appId: 'onboard', roleName: 'MLL Procurement' }],
  companyCodes: ['1000'],
  activeCompanyCode: 'All',
  baId: null,
  baStatus: null,
  application: 'console',
  firstLogin: false,
  passwordExpired: false,
  status: 'active',
  home: '/console',
  ...over,
});
