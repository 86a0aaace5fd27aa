-- A request keeps its holdings in its own row (holdings: their CPHs in
-- order, space-separated), so that reading requests needs no second query
-- for them: it was a fifth of a listing's time. request_holdings stays,
-- for the listings that start from a holding (by CPH, then id or month),
-- and loses its index by request id, which only that second query used:
-- a request's rows are deleted by their primary key, from the holdings its
-- row names.

-- +goose Up
ALTER TABLE requests ADD COLUMN holdings TEXT NOT NULL DEFAULT '';
UPDATE requests SET holdings = coalesce(
    (SELECT group_concat(h.cph, ' ' ORDER BY h.cph) FROM request_holdings h WHERE h.request_id = requests.id), '');
DROP INDEX request_holdings_request;

-- +goose Down
CREATE INDEX request_holdings_request ON request_holdings (request_id);
ALTER TABLE requests DROP COLUMN holdings;
