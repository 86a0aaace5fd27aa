-- Movement requests, the movements they make, and the replies kept for
-- retries. Request times are timestamptz; movement dates are date. A
-- movement's id is the id of the transfer request that made it.

-- +goose Up
CREATE TABLE requests (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    type           text NOT NULL,
    status         text NOT NULL,
    user_name      text NOT NULL,
    request_date   timestamptz NOT NULL,
    updated_date   timestamptz NOT NULL,
    movement_date  timestamptz,
    species        text NOT NULL,
    tracking_id    text,
    correlation_id text NOT NULL,
    -- target_id is what the caller named; it may not exist (the job says so).
    target_id      bigint,
    is_full_undone boolean NOT NULL,
    undo_supported boolean NOT NULL,
    content        bytea NOT NULL,
    errors         text NOT NULL,
    warnings       text NOT NULL,
    document_ref   text NOT NULL
);
CREATE UNIQUE INDEX requests_tracking ON requests (user_name, tracking_id) WHERE tracking_id IS NOT NULL;
CREATE INDEX requests_type ON requests (type, id);
CREATE INDEX requests_user ON requests (user_name, type, id);
CREATE INDEX requests_movement_date ON requests (type, movement_date, id);

-- request_holdings says who besides the submitter may see a request.
CREATE TABLE request_holdings (
    request_id bigint NOT NULL REFERENCES requests (id),
    cph        text NOT NULL,
    PRIMARY KEY (cph, request_id)
);
CREATE INDEX request_holdings_request ON request_holdings (request_id);

CREATE TABLE movements (
    id             bigint PRIMARY KEY REFERENCES requests (id),
    request_id     bigint NOT NULL REFERENCES requests (id),
    user_name      text NOT NULL,
    species        text NOT NULL,
    source         text NOT NULL,
    destination    text NOT NULL,
    review_holding text,
    transfer_date  date NOT NULL,
    arrival_date   date,
    state          text NOT NULL,
    animal_count   integer NOT NULL,
    flags          text NOT NULL,
    standstill     boolean NOT NULL,
    review_id      bigint REFERENCES requests (id)
);
CREATE INDEX movements_review ON movements (review_holding, state, species, id);
-- ArrivalsOn asks for exactly this expression.
CREATE INDEX movements_arrivals ON movements (destination, (COALESCE(arrival_date, transfer_date)));

CREATE TABLE movement_devices (
    movement_id    bigint NOT NULL REFERENCES movements (id),
    position       integer NOT NULL,
    identifier     text NOT NULL,
    rfid           text NOT NULL,
    prior_cph      text NOT NULL,
    prior_on_since date,
    outcome        text NOT NULL,
    PRIMARY KEY (movement_id, identifier)
);
CREATE INDEX movement_devices_identifier ON movement_devices (identifier);

CREATE TABLE movement_batches (
    movement_id  bigint NOT NULL REFERENCES movements (id),
    position     integer NOT NULL,
    batch_number text NOT NULL,
    animal_total integer NOT NULL,
    accepted     integer NOT NULL,
    PRIMARY KEY (movement_id, position)
);

CREATE TABLE replies (
    user_name      text NOT NULL,
    correlation_id text NOT NULL,
    request_hash   text NOT NULL,
    status         integer NOT NULL,
    body           bytea NOT NULL,
    created_at     timestamptz NOT NULL,
    PRIMARY KEY (user_name, correlation_id)
);

-- +goose Down
DROP TABLE replies;
DROP TABLE movement_batches;
DROP TABLE movement_devices;
DROP TABLE movements;
DROP TABLE request_holdings;
DROP TABLE requests;
