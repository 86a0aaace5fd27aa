-- Animal registration: the registration requests (kept in both modes, so
-- that a request status can be read and a retry answered) and the details
-- a registration gives an animal. Instants are TEXT in TimeFormat, dates
-- TEXT YYYY-MM-DD, booleans INTEGER 0 or 1. The new animal columns are
-- nullable (NULL for the animals that arrived by the seed), save
-- movement_restricted, which defaults to 0. A STRICT table accepts ADD
-- COLUMN with one of its types.

-- +goose Up
CREATE TABLE registrations (
    id             TEXT PRIMARY KEY, -- a UUID
    user_name      TEXT NOT NULL,
    async          INTEGER NOT NULL,
    status         TEXT NOT NULL,
    request_date   TEXT NOT NULL,
    updated_date   TEXT NOT NULL,
    next_poll_at   TEXT NOT NULL,
    correlation_id TEXT NOT NULL,
    body           BLOB NOT NULL,
    identifier     TEXT, -- the animal registered, once Completed
    errors         TEXT NOT NULL,
    warnings       TEXT NOT NULL
) STRICT;
CREATE INDEX registrations_user ON registrations (user_name, request_date);

ALTER TABLE animals ADD COLUMN name TEXT;
ALTER TABLE animals ADD COLUMN production_type TEXT;
ALTER TABLE animals ADD COLUMN breed TEXT;
ALTER TABLE animals ADD COLUMN birth_site TEXT;
ALTER TABLE animals ADD COLUMN birth_dam TEXT;
ALTER TABLE animals ADD COLUMN genetic_dam TEXT;
ALTER TABLE animals ADD COLUMN sire TEXT;
ALTER TABLE animals ADD COLUMN original_identifier TEXT;
ALTER TABLE animals ADD COLUMN identification_date TEXT;
ALTER TABLE animals ADD COLUMN registration_date TEXT;
ALTER TABLE animals ADD COLUMN received_date TEXT;
ALTER TABLE animals ADD COLUMN death_date TEXT;
ALTER TABLE animals ADD COLUMN category TEXT;
ALTER TABLE animals ADD COLUMN movement_restricted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE animals ADD COLUMN restriction_reason TEXT;
ALTER TABLE animals ADD COLUMN registered_by TEXT;
ALTER TABLE animals ADD COLUMN record BLOB;

-- +goose Down
ALTER TABLE animals DROP COLUMN record;
ALTER TABLE animals DROP COLUMN registered_by;
ALTER TABLE animals DROP COLUMN restriction_reason;
ALTER TABLE animals DROP COLUMN movement_restricted;
ALTER TABLE animals DROP COLUMN category;
ALTER TABLE animals DROP COLUMN death_date;
ALTER TABLE animals DROP COLUMN received_date;
ALTER TABLE animals DROP COLUMN registration_date;
ALTER TABLE animals DROP COLUMN identification_date;
ALTER TABLE animals DROP COLUMN original_identifier;
ALTER TABLE animals DROP COLUMN sire;
ALTER TABLE animals DROP COLUMN genetic_dam;
ALTER TABLE animals DROP COLUMN birth_dam;
ALTER TABLE animals DROP COLUMN birth_site;
ALTER TABLE animals DROP COLUMN breed;
ALTER TABLE animals DROP COLUMN production_type;
ALTER TABLE animals DROP COLUMN name;
DROP TABLE registrations;
