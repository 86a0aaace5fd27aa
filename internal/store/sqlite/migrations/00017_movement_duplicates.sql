-- A movement remembers the requests recorded as reports of it made again
-- from its other end (duplicates: a JSON list of request ids), so that the
-- review look-up shows them as the live isDuplicate and duplicateRequestIds.
-- movements_route finds the movements between two holdings on one transfer
-- date, among which a transfer looks for the one it reports again.

-- +goose Up
ALTER TABLE movements ADD COLUMN duplicates TEXT NOT NULL DEFAULT '[]';
CREATE INDEX movements_route ON movements (source, destination, transfer_date);

-- +goose Down
DROP INDEX movements_route;
ALTER TABLE movements DROP COLUMN duplicates;
