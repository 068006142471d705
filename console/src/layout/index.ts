export { ConsoleLayout } from './Layout';
export { ConsoleMenu } from './Menu';
export { ConsoleNotification, SNACKBAR_ANCHOR, SNACKBAR_AUTO_HIDE_MS } from './ConsoleNotification';
export { LoginPage } from './LoginPage';
export { BrokenPage } from './BrokenPage';
export { useBaCounts } from './useBaCounts';
export { SessionGate, CHANGE_PASSWORD_PATH, LOGIN_PATH } from './SessionGate';
