export * from './model-id';
export * from './errors';
export * from './usage';
export * from './glob';
export * from './human';
