-- A month of a keeper's requests is read by movement date, not id: each
-- branch of a listing (the user's own, each holding's) gets an index that
-- leads with what the branch is keyed on, then the date. request_holdings
-- keeps a copy of its request's movement_date, which never changes once
-- the request is stored, so a holding's branch needs no join to narrow by
-- date.

-- +goose Up
ALTER TABLE request_holdings ADD COLUMN movement_date TEXT;
UPDATE request_holdings SET movement_date = (SELECT r.movement_date FROM requests r WHERE r.id = request_id);
CREATE INDEX request_holdings_date ON request_holdings (cph, movement_date, request_id);
CREATE INDEX requests_user_date ON requests (user_name, type, movement_date, id);

-- +goose Down
DROP INDEX requests_user_date;
DROP INDEX request_holdings_date;
ALTER TABLE request_holdings DROP COLUMN movement_date;
