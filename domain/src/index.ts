export * from './shared/events';
export * from './shared/errors';
export * from './shared/decider';
export * from './event-store/port';
export * from './event-store/handle-command';
export * from './identity/roles';
