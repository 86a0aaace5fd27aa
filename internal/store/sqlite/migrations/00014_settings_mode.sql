-- settings holds facts about the database itself; its one row so far is
-- mode: sandbox or production (store.Mode), fixed by the first command
-- with a mode to use the database, so that sandbox test users are never
-- seeded into real data and a production server never serves a sandbox.
-- A database made before this migration takes its mode from its users:
-- one that holds the sandbox's keeper1 and no user without a password
-- (the users of drover import, who sign in at an external issuer, have
-- none) is a sandbox; any other with users is production, including a
-- production database into which a sandbox replica had seeded its users.
-- One without users is left to its first command.

-- +goose Up
CREATE TABLE settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    CHECK (name <> 'mode' OR value IN ('sandbox', 'production'))
);
INSERT INTO settings (name, value)
SELECT 'mode', CASE
        WHEN EXISTS (SELECT 1 FROM users WHERE user_name = 'keeper1' AND password_hash IS NOT NULL)
            AND NOT EXISTS (SELECT 1 FROM users WHERE password_hash IS NULL) THEN 'sandbox'
        ELSE 'production' END
WHERE EXISTS (SELECT 1 FROM users);

-- +goose Down
DROP TABLE settings;
