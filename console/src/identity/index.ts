export { ChangePasswordPage } from './ChangePasswordPage';
export { CompanySelector } from './CompanySelector';
export { ConsoleUserMenu, SUPPORT_MAILBOX, USER_MANUAL_URL } from './ConsoleUserMenu';
export { CaptchaField, CAPTCHA_URL } from './CaptchaField';
export { showsCompanySelector } from './access';
