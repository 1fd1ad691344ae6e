-- Agent mode: a campaign target may run the agent loop (its configuration is the campaign config's `agent`).
ALTER TYPE "OutputMode" ADD VALUE IF NOT EXISTS 'agent';
