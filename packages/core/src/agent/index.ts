export * from './agent-config';
export * from './exit-status';
export * from './fixture-agent';
export * from './scored-on';
export * from './tool-set';
export * from './trajectory';
export * from './step-head';
export * from './tools';
