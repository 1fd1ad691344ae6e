export * from './attempt-evidence';
export * from './judgement-evidence';
export * from './model-call-evidence';
export * from './sandbox-evidence';
export * from './scoring-evidence';
export { capJsonStrings } from './cap-strings';
