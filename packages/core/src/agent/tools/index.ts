export * from './cap-output';
export * from './bash-tool';
export * from './editor-tools';
export * from './submit-tool';
export * from './tool-registry';
