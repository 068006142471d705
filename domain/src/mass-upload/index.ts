export * from './columns';
export * from './rules';
export * from './events';
export * from './vendor-state';
