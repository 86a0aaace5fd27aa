-- A movement remembers which end reported it (reported_by: Departure or
-- Destination), because the live ApprovedMovements keys each end's record
-- of a movement by the side that recorded it. Movements made before this
-- migration take it from their request's userHolding: the source holding
-- (or none) means the departure reported it. The two indexes serve a
-- keeper's listing of approved movements, by their holdings' ends in id
-- order.

-- +goose Up
ALTER TABLE movements ADD COLUMN reported_by TEXT NOT NULL DEFAULT 'Departure';
UPDATE movements SET reported_by = 'Destination'
WHERE EXISTS (SELECT 1 FROM requests r WHERE r.id = movements.request_id
    AND json_valid(CAST(r.content AS TEXT))
    AND coalesce(json_extract(CAST(r.content AS TEXT), '$.userHolding'), '') <> ''
    AND replace(json_extract(CAST(r.content AS TEXT), '$.userHolding'), '/', '') <> replace(movements.source, '/', ''));
CREATE INDEX movements_source ON movements (source, id);
CREATE INDEX movements_destination ON movements (destination, id);

-- +goose Down
DROP INDEX movements_destination;
DROP INDEX movements_source;
ALTER TABLE movements DROP COLUMN reported_by;
