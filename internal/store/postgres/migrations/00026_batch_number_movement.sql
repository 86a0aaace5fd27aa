-- An undo asks whether a later movement took a batch number on from the
-- holding it is putting the batch back from (MovedAfter): batch lines of
-- that number after a movement id. On (batch_number) alone PostgreSQL
-- filtered every line of a flock's number, a cost that grows with its
-- history; SQLite's index already ends in the movement id (its table has
-- no rowid). Tracing reads lines by number, which this index serves too.

-- +goose Up
CREATE INDEX movement_batches_number_movement ON movement_batches (batch_number, movement_id);
DROP INDEX movement_batches_number;

-- +goose Down
CREATE INDEX movement_batches_number ON movement_batches (batch_number);
DROP INDEX movement_batches_number_movement;
