-- Each batch line of a movement has its own id, its batchMovementId: the
-- review look-up shows it and a review names the line by it. Ids come
-- from a sequence, so that an id a correction dropped is never given to
-- another line. Lines stored before this migration are numbered in
-- movement and line order.

-- +goose Up
CREATE SEQUENCE movement_batch_ids;
ALTER TABLE movement_batches ADD COLUMN batch_movement_id bigint;
UPDATE movement_batches b SET batch_movement_id = n.id
    FROM (SELECT movement_id, position, row_number() OVER (ORDER BY movement_id, position) AS id
          FROM movement_batches) n
    WHERE n.movement_id = b.movement_id AND n.position = b.position;
SELECT setval('movement_batch_ids', coalesce(max(batch_movement_id), 0) + 1, false) FROM movement_batches;
ALTER TABLE movement_batches ALTER COLUMN batch_movement_id SET NOT NULL;
CREATE UNIQUE INDEX movement_batches_id ON movement_batches (batch_movement_id);

-- +goose Down
DROP INDEX movement_batches_id;
ALTER TABLE movement_batches DROP COLUMN batch_movement_id;
DROP SEQUENCE movement_batch_ids;
