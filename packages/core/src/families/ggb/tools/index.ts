import { registerToolSet } from '../../../agent/tools/tool-registry';
import { GGB_ICC_TOOL_SET } from './icc';
import { GGB_IR_TOOL_SET } from './ir';
import { GGB_MCR_TOOL_SET } from './mcr';

export * from './mcr';
export * from './ir';
export * from './icc';

/** GitGoodBench's tool sets by the names fixtures give in agent.tool_set. */
export const GGB_TOOL_SETS = [GGB_MCR_TOOL_SET, GGB_IR_TOOL_SET, GGB_ICC_TOOL_SET] as const;
for (const set of GGB_TOOL_SETS) registerToolSet(set);
