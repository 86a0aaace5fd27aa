-- Each batch line of a movement has its own id, its batchMovementId: the
-- review look-up shows it and a review names the line by it. Ids come
-- from a counter rather than from max(id) + 1, so that an id a correction
-- dropped is never given to another line. Lines stored before this
-- migration are numbered in movement and line order.

-- +goose Up
ALTER TABLE movement_batches ADD COLUMN batch_movement_id INTEGER;
UPDATE movement_batches SET batch_movement_id = n.id
    FROM (SELECT movement_id, position, row_number() OVER (ORDER BY movement_id, position) AS id
          FROM movement_batches) n
    WHERE n.movement_id = movement_batches.movement_id AND n.position = movement_batches.position;
CREATE UNIQUE INDEX movement_batches_id ON movement_batches (batch_movement_id);
CREATE TABLE id_counters (
    name TEXT PRIMARY KEY,
    last INTEGER NOT NULL
) STRICT;
INSERT INTO id_counters (name, last)
    SELECT 'batch_movement', coalesce(max(batch_movement_id), 0) FROM movement_batches;

-- +goose Down
DROP TABLE id_counters;
DROP INDEX movement_batches_id;
ALTER TABLE movement_batches DROP COLUMN batch_movement_id;
