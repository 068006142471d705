export { ChangePasswordPage } from './ChangePasswordPage';
export { CompanySelector } from './CompanySelector';
export { ConsoleUserMenu } from './ConsoleUserMenu';
export { CaptchaField, CAPTCHA_URL } from '../../../ui/src/CaptchaField';
export { showsCompanySelector } from './access';
