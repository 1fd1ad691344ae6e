export * from './csv';
export * from './campaign-attempts';
export * from './artificial-analysis';
