-- Drover's first schema on PostgreSQL: instants are timestamptz, dates are
-- date, payloads and keys are bytea (kept byte for byte). Tables are
-- created in the first schema of the search_path.

-- +goose Up
CREATE TABLE holdings (
    cph  text PRIMARY KEY,
    type text NOT NULL,
    mhs  text UNIQUE
);

CREATE TABLE users (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_name     text NOT NULL UNIQUE,
    subject       text NOT NULL UNIQUE,
    role          text NOT NULL,
    password_hash bytea
);

CREATE TABLE user_holdings (
    user_id bigint NOT NULL REFERENCES users (id),
    cph     text NOT NULL REFERENCES holdings (cph),
    PRIMARY KEY (user_id, cph)
);

CREATE TABLE flocks (
    mark    text PRIMARY KEY,
    species text NOT NULL,
    cph     text NOT NULL REFERENCES holdings (cph)
);
CREATE INDEX flocks_cph ON flocks (cph);

CREATE TABLE issued_tags (
    identifier text PRIMARY KEY,
    mark       text NOT NULL REFERENCES flocks (mark),
    species    text NOT NULL,
    issued_on  date NOT NULL
);
CREATE INDEX issued_tags_mark ON issued_tags (mark);

CREATE TABLE animals (
    identifier text PRIMARY KEY,
    species    text NOT NULL,
    sex        text NOT NULL,
    birth_date date NOT NULL,
    cph        text NOT NULL REFERENCES holdings (cph),
    on_since   date NOT NULL,
    state      text NOT NULL
);
CREATE INDEX animals_cph ON animals (cph);

CREATE TABLE signing_keys (
    id          text PRIMARY KEY,
    algorithm   text NOT NULL,
    private_jwk bytea NOT NULL,
    created_at  timestamptz NOT NULL
);

CREATE TABLE auth_codes (
    code_hash      text PRIMARY KEY,
    user_name      text NOT NULL,
    client_id      text NOT NULL,
    redirect_uri   text NOT NULL,
    challenge      text NOT NULL,
    challenge_type text NOT NULL,
    scope          text NOT NULL,
    expires_at     timestamptz NOT NULL,
    used_at        timestamptz
);

CREATE TABLE refresh_tokens (
    token_hash text PRIMARY KEY,
    user_name  text NOT NULL,
    client_id  text NOT NULL,
    scope      text NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);

CREATE TABLE jobs (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind         text NOT NULL,
    payload      bytea NOT NULL,
    state        text NOT NULL DEFAULT 'available' CHECK (state IN ('available', 'done', 'failed')),
    attempts     integer NOT NULL DEFAULT 0,
    max_attempts integer NOT NULL DEFAULT 25,
    run_at       timestamptz NOT NULL,
    last_error   text NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL,
    finished_at  timestamptz
);
CREATE INDEX jobs_claim ON jobs (state, run_at, id);

CREATE TABLE audit_log (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at             timestamptz NOT NULL,
    user_name      text NOT NULL,
    action         text NOT NULL,
    subject        text NOT NULL,
    correlation_id text NOT NULL,
    detail         text NOT NULL
);
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
