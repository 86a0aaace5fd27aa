-- A movement remembers which end reported it (reported_by: Departure or
-- Destination), because the live ApprovedMovements keys each end's record
-- of a movement by the side that recorded it. Movements made before this
-- migration take it from their request's userHolding: the source holding
-- (or none) means the departure reported it. The two indexes serve a
-- keeper's listing of approved movements, by their holdings' ends in id
-- order.

-- +goose Up
ALTER TABLE movements ADD COLUMN reported_by text NOT NULL DEFAULT 'Departure';
UPDATE movements m SET reported_by = 'Destination'
FROM requests r
WHERE r.id = m.request_id
    AND convert_from(r.content, 'UTF8') LIKE '{%'
    AND coalesce(convert_from(r.content, 'UTF8')::jsonb ->> 'userHolding', '') <> ''
    AND replace(convert_from(r.content, 'UTF8')::jsonb ->> 'userHolding', '/', '') <> replace(m.source, '/', '');
CREATE INDEX movements_source ON movements (source, id);
CREATE INDEX movements_destination ON movements (destination, id);

-- +goose Down
DROP INDEX movements_destination;
DROP INDEX movements_source;
ALTER TABLE movements DROP COLUMN reported_by;
