export * from './config';
export * from './history';
export * from './judgement';
export { GGB_CHECK_DIFF_LINES, GGB_PROBES, GGB_DIFF_CAP } from '../../scoring/scorers/ggb';
export * from './hunks';
export * from './tools';
