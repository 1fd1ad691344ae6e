export * from './attempt-store';
export * from './campaign-store';
export * from './legacy-import';
export * from './create-campaign';
export * from './judge-cache';
export * from './fixture-builds';
export * from './archive';
export * from './campaign-summary';
