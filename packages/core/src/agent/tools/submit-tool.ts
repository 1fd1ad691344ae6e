import { z } from 'zod';
import { defineTool } from '../tool-set';

export const submitArgs = z.object({ answer: z.string() }).strict();

/** Ends the loop. Question fixtures are scored on `answer`; fixtures that change the repository on the repository. */
export const submitTool = defineTool<z.infer<typeof submitArgs>>({
  name: 'submit',
  description:
    'Finish the task with your final answer. The task says what ' +
    'is checked: the answer, or what you leave in the repository.',
  parameters: {
    type: 'object',
    properties: {
      answer: { type: 'string', description: 'Your final answer (empty when the task checks only the repository).' },
    },
    required: ['answer'],
    additionalProperties: false,
  },
  args: submitArgs,
  terminal: true,
  run(args) {
    return Promise.resolve({ output: 'Submitted.', isError: false, submission: { answer: args.answer } });
  },
});
