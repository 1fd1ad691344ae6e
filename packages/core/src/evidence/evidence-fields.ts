import { z } from 'zod';

/** Field types every part of the evidence record shares. */
export const count = z.number().int().nonnegative();
export const ms = z.number().nonnegative();
export const json = z.record(z.string(), z.unknown());
