-- Animal registration: the registration requests (kept in both modes, so
-- that a request status can be read and a retry answered) and the details
-- a registration gives an animal. The new animal columns are nullable
-- (NULL for the animals that arrived by the seed), save
-- movement_restricted, which defaults to false; adding them rewrites no
-- row.

-- +goose Up
CREATE TABLE registrations (
    id             text PRIMARY KEY, -- a UUID
    user_name      text NOT NULL,
    async          boolean NOT NULL,
    status         text NOT NULL,
    request_date   timestamptz NOT NULL,
    updated_date   timestamptz NOT NULL,
    next_poll_at   timestamptz NOT NULL,
    correlation_id text NOT NULL,
    body           bytea NOT NULL,
    identifier     text, -- the animal registered, once Completed
    errors         text NOT NULL,
    warnings       text NOT NULL
);
CREATE INDEX registrations_user ON registrations (user_name, request_date);

ALTER TABLE animals
    ADD COLUMN name                text,
    ADD COLUMN production_type     text,
    ADD COLUMN breed               text,
    ADD COLUMN birth_site          text,
    ADD COLUMN birth_dam           text,
    ADD COLUMN genetic_dam         text,
    ADD COLUMN sire                text,
    ADD COLUMN original_identifier text,
    ADD COLUMN identification_date date,
    ADD COLUMN registration_date   date,
    ADD COLUMN received_date       timestamptz,
    ADD COLUMN death_date          date,
    ADD COLUMN category            text,
    ADD COLUMN movement_restricted boolean NOT NULL DEFAULT false,
    ADD COLUMN restriction_reason  text,
    ADD COLUMN registered_by       text,
    ADD COLUMN record              bytea;

-- +goose Down
ALTER TABLE animals
    DROP COLUMN record,
    DROP COLUMN registered_by,
    DROP COLUMN restriction_reason,
    DROP COLUMN movement_restricted,
    DROP COLUMN category,
    DROP COLUMN death_date,
    DROP COLUMN received_date,
    DROP COLUMN registration_date,
    DROP COLUMN identification_date,
    DROP COLUMN original_identifier,
    DROP COLUMN sire,
    DROP COLUMN genetic_dam,
    DROP COLUMN birth_dam,
    DROP COLUMN birth_site,
    DROP COLUMN breed,
    DROP COLUMN production_type,
    DROP COLUMN name;
DROP TABLE registrations;
