-- Replies move from a WITHOUT ROWID table keyed by the correlation id to
-- a rowid table with a unique index on it. A reply body (the 201 with its
-- content) is over a kilobyte, which a WITHOUT ROWID row keeps in an
-- overflow page of its own, and clients' random UUIDs put each new row on
-- a different page of the table: every reply wrote several pages to the
-- WAL. Now the rows append at the end and only a small index entry lands
-- at random.

-- +goose Up
CREATE TABLE replies_by_row (
    user_name      TEXT NOT NULL,
    correlation_id TEXT NOT NULL,
    request_hash   TEXT NOT NULL,
    status         INTEGER NOT NULL,
    body           BLOB NOT NULL,
    created_at     TEXT NOT NULL,
    request_id     TEXT NOT NULL DEFAULT ''
) STRICT;
INSERT INTO replies_by_row (user_name, correlation_id, request_hash, status, body, created_at, request_id)
    SELECT user_name, correlation_id, request_hash, status, body, created_at, request_id FROM replies ORDER BY created_at;
DROP TABLE replies;
ALTER TABLE replies_by_row RENAME TO replies;
CREATE UNIQUE INDEX replies_key ON replies (user_name, correlation_id);
CREATE INDEX replies_created ON replies (created_at);

-- +goose Down
CREATE TABLE replies_by_key (
    user_name      TEXT NOT NULL,
    correlation_id TEXT NOT NULL,
    request_hash   TEXT NOT NULL,
    status         INTEGER NOT NULL,
    body           BLOB NOT NULL,
    created_at     TEXT NOT NULL,
    request_id     TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (user_name, correlation_id)
) STRICT, WITHOUT ROWID;
INSERT INTO replies_by_key (user_name, correlation_id, request_hash, status, body, created_at, request_id)
    SELECT user_name, correlation_id, request_hash, status, body, created_at, request_id FROM replies;
DROP TABLE replies;
ALTER TABLE replies_by_key RENAME TO replies;
CREATE INDEX replies_created ON replies (created_at);
