export * from './agent-adapter';
export * from './agent-command';
export * from './agent-image';
export * from './registry';
