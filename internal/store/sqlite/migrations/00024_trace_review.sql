-- A trace shows which review decided each movement (reviewRequestId), and
-- orders a holding's same-day lines by when each was settled, review
-- included. The two trace indexes of migration 00020 gain review_id, so
-- that a trace still reads index ranges only.

-- +goose Up
DROP INDEX movements_trace_from;
CREATE INDEX movements_trace_from ON movements
    (source, transfer_date, state, destination, arrival_date, species, request_id, animal_count, review_id);
DROP INDEX movements_trace_to;
CREATE INDEX movements_trace_to ON movements
    (destination, coalesce(arrival_date, transfer_date), state, source, transfer_date, arrival_date, species,
     request_id, animal_count, review_id);

-- +goose Down
DROP INDEX movements_trace_from;
CREATE INDEX movements_trace_from ON movements
    (source, transfer_date, state, destination, arrival_date, species, request_id, animal_count);
DROP INDEX movements_trace_to;
CREATE INDEX movements_trace_to ON movements
    (destination, coalesce(arrival_date, transfer_date), state, source, transfer_date, arrival_date, species,
     request_id, animal_count);
