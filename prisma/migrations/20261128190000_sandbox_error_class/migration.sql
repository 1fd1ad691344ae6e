-- A failed sandbox has one error class, 'sandbox_error', whether it was thrown (an agent's session
-- ended under its loop, a container that would not start) or concluded by scoring (a single answer's
-- batch ended unfinished): attempts and tries stored with the thrown failure's name, 'sandbox', are
-- renamed, so filters, exports and pages read one name for old and new rows alike.
UPDATE "Attempt" SET "errorClass" = 'sandbox_error' WHERE "errorClass" = 'sandbox';
UPDATE "AttemptTry" SET "errorClass" = 'sandbox_error' WHERE "errorClass" = 'sandbox';
