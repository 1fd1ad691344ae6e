export * from './chat-request';
export * from './compact-view';
export * from './manual-answer';
