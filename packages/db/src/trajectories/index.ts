export * from './trajectory-store';
export { seedTrajectory, storeTrajectory, type SeedTrajectoryOptions } from './seed-trajectory';
export { trajectoryAtif } from './trajectory-atif';
export * from './gateway-call-store';
