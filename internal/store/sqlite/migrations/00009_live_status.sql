-- Requests keep the live service's status values (docs/request-status.md):
-- a request that broke a rule is Fail, not Failed, and one that took effect
-- with warnings is CompletedWarning, no longer Success. Registrations keep
-- the same vocabulary: Success for Completed, Fail for Failed. A holding
-- gets a name, which Holdings/ValidHoldings answers as its propertyName;
-- holdings stored before have none ('').

-- +goose Up
UPDATE requests SET status = 'Fail' WHERE status = 'Failed';
UPDATE requests SET status = 'CompletedWarning' WHERE status = 'Success' AND warnings <> '[]';
UPDATE registrations SET status = 'Success' WHERE status = 'Completed';
UPDATE registrations SET status = 'Fail' WHERE status = 'Failed';
ALTER TABLE holdings ADD COLUMN name TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE holdings DROP COLUMN name;
UPDATE registrations SET status = 'Failed' WHERE status = 'Fail';
UPDATE registrations SET status = 'Completed' WHERE status = 'Success';
UPDATE requests SET status = 'Success' WHERE status = 'CompletedWarning';
UPDATE requests SET status = 'Failed' WHERE status IN ('Fail', 'QueueFail');
