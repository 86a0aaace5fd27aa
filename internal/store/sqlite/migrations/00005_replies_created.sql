-- Replies are kept for a retention period (--reply-retention): the oldest
-- are deleted in batches, oldest first, which reads this index in order
-- instead of scanning and sorting the whole table each batch.

-- +goose Up
CREATE INDEX replies_created ON replies (created_at);

-- +goose Down
DROP INDEX replies_created;
