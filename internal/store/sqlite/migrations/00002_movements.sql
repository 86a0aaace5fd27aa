-- Movement requests, the movements they make, and the replies kept for
-- retries. Instants are TEXT in TimeFormat, dates TEXT YYYY-MM-DD,
-- booleans INTEGER 0 or 1. A movement's id is the id of the transfer
-- request that made it.

-- +goose Up
-- AUTOINCREMENT: ids only grow, so keyset paging (id > after) never skips
-- a request made later with a reused id.
CREATE TABLE requests (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    type           TEXT NOT NULL,
    status         TEXT NOT NULL,
    user_name      TEXT NOT NULL,
    request_date   TEXT NOT NULL,
    updated_date   TEXT NOT NULL,
    movement_date  TEXT,
    species        TEXT NOT NULL,
    tracking_id    TEXT,
    correlation_id TEXT NOT NULL,
    -- target_id is what the caller named; it may not exist (the job says so).
    target_id      INTEGER,
    is_full_undone INTEGER NOT NULL,
    undo_supported INTEGER NOT NULL,
    content        BLOB NOT NULL,
    errors         TEXT NOT NULL,
    warnings       TEXT NOT NULL,
    document_ref   TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX requests_tracking ON requests (user_name, tracking_id) WHERE tracking_id IS NOT NULL;
CREATE INDEX requests_type ON requests (type, id);
CREATE INDEX requests_user ON requests (user_name, type, id);
CREATE INDEX requests_movement_date ON requests (type, movement_date, id);

-- request_holdings says who besides the submitter may see a request.
CREATE TABLE request_holdings (
    request_id INTEGER NOT NULL REFERENCES requests (id),
    cph        TEXT NOT NULL,
    PRIMARY KEY (cph, request_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX request_holdings_request ON request_holdings (request_id);

CREATE TABLE movements (
    id             INTEGER PRIMARY KEY REFERENCES requests (id),
    request_id     INTEGER NOT NULL REFERENCES requests (id),
    user_name      TEXT NOT NULL,
    species        TEXT NOT NULL,
    source         TEXT NOT NULL,
    destination    TEXT NOT NULL,
    review_holding TEXT,
    transfer_date  TEXT NOT NULL,
    arrival_date   TEXT,
    state          TEXT NOT NULL,
    animal_count   INTEGER NOT NULL,
    flags          TEXT NOT NULL,
    standstill     INTEGER NOT NULL,
    review_id      INTEGER REFERENCES requests (id)
) STRICT;
CREATE INDEX movements_review ON movements (review_holding, state, species, id);
-- ArrivalsOn asks for exactly this expression.
CREATE INDEX movements_arrivals ON movements (destination, coalesce(arrival_date, transfer_date));

CREATE TABLE movement_devices (
    movement_id    INTEGER NOT NULL REFERENCES movements (id),
    position       INTEGER NOT NULL,
    identifier     TEXT NOT NULL,
    rfid           TEXT NOT NULL,
    prior_cph      TEXT NOT NULL,
    prior_on_since TEXT,
    outcome        TEXT NOT NULL,
    PRIMARY KEY (movement_id, identifier)
) STRICT, WITHOUT ROWID;
CREATE INDEX movement_devices_identifier ON movement_devices (identifier);

CREATE TABLE movement_batches (
    movement_id  INTEGER NOT NULL REFERENCES movements (id),
    position     INTEGER NOT NULL,
    batch_number TEXT NOT NULL,
    animal_total INTEGER NOT NULL,
    accepted     INTEGER NOT NULL,
    PRIMARY KEY (movement_id, position)
) STRICT, WITHOUT ROWID;

CREATE TABLE replies (
    user_name      TEXT NOT NULL,
    correlation_id TEXT NOT NULL,
    request_hash   TEXT NOT NULL,
    status         INTEGER NOT NULL,
    body           BLOB NOT NULL,
    created_at     TEXT NOT NULL,
    PRIMARY KEY (user_name, correlation_id)
) STRICT, WITHOUT ROWID;

-- +goose Down
DROP TABLE replies;
DROP TABLE movement_batches;
DROP TABLE movement_devices;
DROP TABLE movements;
DROP TABLE request_holdings;
DROP TABLE requests;
