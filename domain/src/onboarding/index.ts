export * from './commands';
export * from './events';
export * from './state';
export * from './details';
export { decide, onboardingDecider, refusals, WELCOME_MESSAGE } from './decide';
