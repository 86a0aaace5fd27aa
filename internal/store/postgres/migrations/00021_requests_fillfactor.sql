-- Every request is written twice: stored Pending by its submission, then
-- given its outcome by its job moments later. None of the columns the job
-- changes is indexed, so PostgreSQL can keep the new version on the same
-- page without touching the table's six indexes (a HOT update), but
-- only if the page has room; on a full page the update writes a new
-- entry into every index instead. Pages filled to 70 % leave that room.
-- Pages written before this migration keep their fill.

-- +goose Up
ALTER TABLE requests SET (fillfactor = 70);

-- +goose Down
ALTER TABLE requests RESET (fillfactor);
