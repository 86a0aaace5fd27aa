-- An undo asks whether a later movement took a batch number on from the
-- holding it puts the batch back from (MovedAfter): batch lines of that
-- number after a movement id. An index on (batch_number) alone makes
-- PostgreSQL filter every line of a flock's number, a cost that grows with
-- its history; SQLite's index already ends in the movement id (its table
-- has no rowid). Tracing reads lines by number, which this index serves
-- too. The old index is dropped first, as in 00024: the table is then
-- locked once, at the start, rather than upgraded from a build's lock
-- while the replicas' jobs wait on it.

-- +goose Up
DROP INDEX movement_batches_number;
CREATE INDEX movement_batches_number_movement ON movement_batches (batch_number, movement_id);

-- +goose Down
DROP INDEX movement_batches_number_movement;
CREATE INDEX movement_batches_number ON movement_batches (batch_number);
