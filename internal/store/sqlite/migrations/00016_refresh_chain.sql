-- chain names the refresh-token chain a token belongs to: the hash of the
-- first token, got by signing in, which every rotation hands on. Reuse of a
-- spent token revokes its chain (RFC 9700 §4.14.2), so a thief and the
-- client cannot both go on refreshing. A token stored before is its own chain.

-- +goose Up
ALTER TABLE refresh_tokens ADD COLUMN chain TEXT NOT NULL DEFAULT '';
UPDATE refresh_tokens SET chain = token_hash;
CREATE INDEX refresh_tokens_chain ON refresh_tokens (chain);

-- +goose Down
DROP INDEX refresh_tokens_chain;
ALTER TABLE refresh_tokens DROP COLUMN chain;
