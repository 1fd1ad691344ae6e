export * from './envelope';
export * from './translate-hashes';
