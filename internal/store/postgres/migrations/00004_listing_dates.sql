-- A month of a keeper's requests is read by movement date, not id: each
-- branch of a listing (the user's own, each holding's) gets an index that
-- leads with what the branch is keyed on, then the date. request_holdings
-- keeps a copy of its request's type and movement_date, which never change
-- once the request is stored, so that a holding's branch of a listing
-- filtered on dates alone reads its index and nothing else.

-- +goose Up
ALTER TABLE request_holdings ADD COLUMN type text;
ALTER TABLE request_holdings ADD COLUMN movement_date timestamptz;
UPDATE request_holdings SET type = (SELECT r.type FROM requests r WHERE r.id = request_id),
    movement_date = (SELECT r.movement_date FROM requests r WHERE r.id = request_id);
CREATE INDEX request_holdings_date ON request_holdings (cph, type, movement_date, request_id);
CREATE INDEX requests_user_date ON requests (user_name, type, movement_date, id);

-- +goose Down
DROP INDEX requests_user_date;
DROP INDEX request_holdings_date;
ALTER TABLE request_holdings DROP COLUMN movement_date;
ALTER TABLE request_holdings DROP COLUMN type;
