export * from './commands';
export * from './events';
export * from './fields';
export * from './decide';
