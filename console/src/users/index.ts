import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import { UserCreate } from './UserCreate';
import { UserEdit } from './UserEdit';
import { UserList } from './UserList';

/** Staff accounts (react-admin resource `users`), MLL-ADMIN only: list, create, edit, block / unblock. */
export const users = {
  name: 'users',
  list: UserList,
  create: UserCreate,
  edit: UserEdit,
  icon: ManageAccountsIcon,
  options: { label: 'Users' },
  recordRepresentation: 'name',
} as const;

export { UserCreate, UserEdit, UserList };
export { BlockButton, UnblockButton } from './UserStatusButtons';
export { mayManageUsers, ASSIGNABLE_ROLES } from './access';
