-- A kept reply names the request it answered, so that a replay repeats
-- the headers that name it (X-Request-ID, Location) even when the body
-- does not (a synchronous registration's 200 names the animal). Replies
-- kept before this migration have '' and expire with --reply-retention.

-- +goose Up
ALTER TABLE replies ADD COLUMN request_id TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE replies DROP COLUMN request_id;
