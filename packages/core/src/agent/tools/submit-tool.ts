import { z } from 'zod';
import { defineTool } from '../tool-set';

export const submitArgs = z.object({ answer: z.string() }).strict();

/** Ends the loop. Question fixtures are scored on `answer`; fixtures that change the repository on the repository. */
export const submitTool = defineTool<z.infer<typeof submitArgs>>({
  name: 'submit',
  description:
    'Finish the task. Give your final answer when the task asks a question; when the task asks you to change the repository, make the change first and submit an empty or short answer.',
  parameters: {
    type: 'object',
    properties: { answer: { type: 'string', description: 'Your final answer (may be empty when the task is a change to the repository).' } },
    required: ['answer'],
    additionalProperties: false,
  },
  args: submitArgs,
  terminal: true,
  run(args) {
    return Promise.resolve({ output: 'Submitted.', isError: false, submission: { answer: args.answer } });
  },
});
