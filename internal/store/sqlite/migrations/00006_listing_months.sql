-- A listing bounded to a few months of movement dates reads each month of
-- each branch (the user's own, each holding's) in id order and stops at
-- the page's end, instead of reading every request of the range and
-- sorting them (00004): a month of a busy keeper costs a page, not the
-- month. movement_month is the movement date's year * 100 + month, in UTC,
-- written with the request and copied to its holdings; like the date it
-- never changes. The indexes end with the date, so that the date bounds
-- are checked in the index.

-- +goose Up
ALTER TABLE requests ADD COLUMN movement_month INTEGER;
ALTER TABLE request_holdings ADD COLUMN movement_month INTEGER;
UPDATE requests SET movement_month =
    CAST(substr(movement_date, 1, 4) AS INTEGER) * 100 + CAST(substr(movement_date, 6, 2) AS INTEGER)
    WHERE movement_date IS NOT NULL;
UPDATE request_holdings SET movement_month =
    CAST(substr(movement_date, 1, 4) AS INTEGER) * 100 + CAST(substr(movement_date, 6, 2) AS INTEGER)
    WHERE movement_date IS NOT NULL;
DROP INDEX requests_user_date;
DROP INDEX request_holdings_date;
DROP INDEX requests_movement_date;
CREATE INDEX requests_month ON requests (type, movement_month, id, movement_date);
CREATE INDEX requests_user_month ON requests (user_name, type, movement_month, id, movement_date);
CREATE INDEX request_holdings_month ON request_holdings (cph, type, movement_month, request_id, movement_date);

-- +goose Down
DROP INDEX request_holdings_month;
DROP INDEX requests_user_month;
DROP INDEX requests_month;
CREATE INDEX requests_movement_date ON requests (type, movement_date, id);
CREATE INDEX request_holdings_date ON request_holdings (cph, type, movement_date, request_id);
CREATE INDEX requests_user_date ON requests (user_name, type, movement_date, id);
ALTER TABLE request_holdings DROP COLUMN movement_month;
ALTER TABLE requests DROP COLUMN movement_month;
