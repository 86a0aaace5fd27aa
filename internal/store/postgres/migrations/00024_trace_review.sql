-- A trace shows which review decided each movement (reviewRequestId), and
-- orders a holding's same-day lines by when each was settled, review
-- included. The two trace indexes of migration 00020 carry review_id too,
-- so that a trace stays an index-only scan.

-- +goose Up
DROP INDEX movements_trace_from;
CREATE INDEX movements_trace_from ON movements (source, transfer_date)
    INCLUDE (state, destination, arrival_date, species, request_id, animal_count, id, review_id);
DROP INDEX movements_trace_to;
CREATE INDEX movements_trace_to ON movements (destination, (COALESCE(arrival_date, transfer_date)))
    INCLUDE (state, source, transfer_date, arrival_date, species, request_id, animal_count, id, review_id);

-- +goose Down
DROP INDEX movements_trace_from;
CREATE INDEX movements_trace_from ON movements (source, transfer_date)
    INCLUDE (state, destination, arrival_date, species, request_id, animal_count, id);
DROP INDEX movements_trace_to;
CREATE INDEX movements_trace_to ON movements (destination, (COALESCE(arrival_date, transfer_date)))
    INCLUDE (state, source, transfer_date, arrival_date, species, request_id, animal_count, id);
