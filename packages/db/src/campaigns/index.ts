export * from './attempt-store';
export * from './campaign-store';
export * from './legacy-import';
export * from './create-campaign';
export * from './judge-cache';
export * from './campaign-summary';
