export * from './roles';
export * from './audit-actions';
export * from './raw-outputs';
