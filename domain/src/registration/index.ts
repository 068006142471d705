export * from './commands';
export * from './events';
export * from './state';
export {
  adminNameFromEmail,
  BA_ADMIN_APPLICATIONS,
  decide,
  registrationDecider,
  registrationForm,
  registrationMessages,
} from './decide';
export type { RegistrationForm } from './decide';
