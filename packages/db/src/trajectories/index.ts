export * from './trajectory-store';
export * from './trajectory-reads';
export { storeTrajectory } from './store-trajectory';
export { trajectoryAtif } from './trajectory-atif';
export * from './gateway-call-store';
