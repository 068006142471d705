export * from './commands';
export * from './events';
export * from './decide';
