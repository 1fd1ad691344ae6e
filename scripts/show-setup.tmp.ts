import './lib/set-up-env';
import { loadSuiteDir } from '@gitbench/engine';
import { setupScript, environmentPreamble } from '@gitbench/core';
const suite = await loadSuiteDir(process.argv[2]!);
const f = (suite as any).fixtures?.[Number(process.argv[3] ?? 0)] ?? (suite as any)[Number(process.argv[3] ?? 0)];
console.log('--- preamble'); console.log(environmentPreamble());
console.log('--- setup'); console.log(setupScript(f));
