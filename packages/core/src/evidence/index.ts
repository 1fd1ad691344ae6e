export * from './attempt-evidence';
export { capJsonStrings } from './cap-strings';
