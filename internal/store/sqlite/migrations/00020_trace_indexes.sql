-- Outbreak tracing (store.TraceStore) reads movements by holding and date
-- in both directions, and batch lines by number. The two movement indexes
-- cover every column a trace reads of a movement (the rowid is its id), so
-- that a trace reads index ranges only and costs what it reaches, not the
-- size of the registry.

-- +goose Up
CREATE INDEX movements_trace_from ON movements
    (source, transfer_date, state, destination, arrival_date, species, request_id, animal_count);
CREATE INDEX movements_trace_to ON movements
    (destination, coalesce(arrival_date, transfer_date), state, source, transfer_date, arrival_date, species,
     request_id, animal_count);
CREATE INDEX movement_batches_number ON movement_batches (batch_number);

-- +goose Down
DROP INDEX movement_batches_number;
DROP INDEX movements_trace_to;
DROP INDEX movements_trace_from;
