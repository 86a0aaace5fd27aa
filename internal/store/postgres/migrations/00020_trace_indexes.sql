-- Outbreak tracing (store.TraceStore) reads movements by holding and date
-- in both directions, and batch lines by number. The two movement indexes
-- carry every other column a trace reads of a movement (INCLUDE), so that
-- a trace is index-only scans once the table is vacuumed, and costs what
-- it reaches, not the size of the registry.

-- +goose Up
CREATE INDEX movements_trace_from ON movements (source, transfer_date)
    INCLUDE (state, destination, arrival_date, species, request_id, animal_count, id);
CREATE INDEX movements_trace_to ON movements (destination, (COALESCE(arrival_date, transfer_date)))
    INCLUDE (state, source, transfer_date, arrival_date, species, request_id, animal_count, id);
CREATE INDEX movement_batches_number ON movement_batches (batch_number);

-- +goose Down
DROP INDEX movement_batches_number;
DROP INDEX movements_trace_to;
DROP INDEX movements_trace_from;
