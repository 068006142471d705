export * from './commands';
export * from './events';
export * from './state';
export * from './details';
export { decide, onboardingDecider, refusals, WELCOME_MESSAGE } from './decide';
export * from './items';
export * from './items-schema';
export { itemRefusals, MAX_ADDITIONAL_BANK_ACCOUNTS } from './decide-items';
export {
  incompleteTabs,
  itemReviewCounts,
  mandatoryDocumentsMissing,
  ONBOARDING_TABS,
  submissionRefusals,
  type OnboardingTab,
} from './submission';
export { changeRequestMessages } from './change-requests';
