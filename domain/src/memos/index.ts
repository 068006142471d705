export * from './amounts';
export * from './decide';
export * from './events';
export * from './invoice-view';
