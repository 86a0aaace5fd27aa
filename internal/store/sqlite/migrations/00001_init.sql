-- Drover's first schema on SQLite. Instants are TEXT in the fixed-width UTC
-- form 2006-01-02T15:04:05.000000Z, so that they compare as text; dates are
-- TEXT YYYY-MM-DD. Tables are STRICT, so a value of the wrong type is an
-- error rather than a surprise.

-- +goose Up
CREATE TABLE holdings (
    cph  TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    mhs  TEXT UNIQUE
) STRICT;

CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    user_name     TEXT NOT NULL UNIQUE,
    subject       TEXT NOT NULL UNIQUE,
    role          TEXT NOT NULL,
    password_hash BLOB
) STRICT;

CREATE TABLE user_holdings (
    user_id INTEGER NOT NULL REFERENCES users (id),
    cph     TEXT NOT NULL REFERENCES holdings (cph),
    PRIMARY KEY (user_id, cph)
) STRICT;

CREATE TABLE flocks (
    mark    TEXT PRIMARY KEY,
    species TEXT NOT NULL,
    cph     TEXT NOT NULL REFERENCES holdings (cph)
) STRICT;
CREATE INDEX flocks_cph ON flocks (cph);

CREATE TABLE issued_tags (
    identifier TEXT PRIMARY KEY,
    mark       TEXT NOT NULL REFERENCES flocks (mark),
    species    TEXT NOT NULL,
    issued_on  TEXT NOT NULL
) STRICT;
CREATE INDEX issued_tags_mark ON issued_tags (mark);

CREATE TABLE animals (
    identifier TEXT PRIMARY KEY,
    species    TEXT NOT NULL,
    sex        TEXT NOT NULL,
    birth_date TEXT NOT NULL,
    cph        TEXT NOT NULL REFERENCES holdings (cph),
    on_since   TEXT NOT NULL,
    state      TEXT NOT NULL
) STRICT;
CREATE INDEX animals_cph ON animals (cph);

CREATE TABLE signing_keys (
    id          TEXT PRIMARY KEY,
    algorithm   TEXT NOT NULL,
    private_jwk BLOB NOT NULL,
    created_at  TEXT NOT NULL
) STRICT;

CREATE TABLE auth_codes (
    code_hash      TEXT PRIMARY KEY,
    user_name      TEXT NOT NULL,
    client_id      TEXT NOT NULL,
    redirect_uri   TEXT NOT NULL,
    challenge      TEXT NOT NULL,
    challenge_type TEXT NOT NULL,
    scope          TEXT NOT NULL,
    expires_at     TEXT NOT NULL,
    used_at        TEXT
) STRICT;

CREATE TABLE refresh_tokens (
    token_hash TEXT PRIMARY KEY,
    user_name  TEXT NOT NULL,
    client_id  TEXT NOT NULL,
    scope      TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at    TEXT
) STRICT;

-- AUTOINCREMENT: a job's id is never reused, since audit lines name it.
CREATE TABLE jobs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    kind         TEXT NOT NULL,
    payload      BLOB NOT NULL,
    state        TEXT NOT NULL DEFAULT 'available' CHECK (state IN ('available', 'done', 'failed')),
    attempts     INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL DEFAULT 25,
    run_at       TEXT NOT NULL,
    last_error   TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL,
    finished_at  TEXT
) STRICT;
CREATE INDEX jobs_claim ON jobs (state, run_at, id);

CREATE TABLE audit_log (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    at             TEXT NOT NULL,
    user_name      TEXT NOT NULL,
    action         TEXT NOT NULL,
    subject        TEXT NOT NULL,
    correlation_id TEXT NOT NULL,
    detail         TEXT NOT NULL
) STRICT;
CREATE INDEX audit_log_subject ON audit_log (subject, at, id);

-- +goose Down
DROP TABLE audit_log;
DROP TABLE jobs;
DROP TABLE refresh_tokens;
DROP TABLE auth_codes;
DROP TABLE signing_keys;
DROP TABLE animals;
DROP TABLE issued_tags;
DROP TABLE flocks;
DROP TABLE user_holdings;
DROP TABLE users;
DROP TABLE holdings;
