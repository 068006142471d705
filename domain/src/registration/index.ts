export * from './commands';
export * from './events';
export * from './state';
export {
  adminNameFromEmail,
  BA_ADMIN_APPLICATIONS,
  COMPANY_CODES,
  decide,
  registrationDecider,
  registrationForm,
  registrationMessages,
} from './decide';
export type { RegistrationForm } from './decide';
