export * from './commands';
export * from './events';
export * from './messages';
export * from './fields';
export * from './decide';
