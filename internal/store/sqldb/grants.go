package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/drover-registry/drover/internal/store"
)

const (
	signingKeysSQL   = `SELECT id, algorithm, private_jwk, created_at FROM signing_keys ORDER BY created_at, id`
	addSigningKeySQL = `INSERT INTO signing_keys (id, algorithm, private_jwk, created_at)
		VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING`
	addAuthCodeSQL = `INSERT INTO auth_codes (code_hash, user_name, client_id, redirect_uri,
		challenge, challenge_type, scope, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`
	// takeAuthCodeSQL marks a code used and returns it in one statement, so
	// of two takes racing for one code exactly one matches used_at IS NULL.
	takeAuthCodeSQL = `UPDATE auth_codes SET used_at = $2
		WHERE code_hash = $1 AND used_at IS NULL AND expires_at > $2
		RETURNING code_hash, user_name, client_id, redirect_uri, challenge, challenge_type, scope, expires_at`
	// A token without a chain starts its own: the chain is its hash.
	addRefreshTokenSQL = `INSERT INTO refresh_tokens (token_hash, user_name, client_id, scope, expires_at, chain)
		VALUES ($1, $2, $3, $4, $5, CASE WHEN $6 = '' THEN $1 ELSE $6 END)`
	takeRefreshTokenSQL = `UPDATE refresh_tokens SET used_at = $2
		WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
		RETURNING token_hash, user_name, client_id, scope, expires_at, chain`
	authCodeSQL = `SELECT code_hash, user_name, client_id, redirect_uri, challenge, challenge_type, scope, expires_at
		FROM auth_codes WHERE code_hash = $1 AND used_at IS NULL AND expires_at > $2`
	refreshTokenSQL = `SELECT token_hash, user_name, client_id, scope, expires_at, chain FROM refresh_tokens
		WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`
	// revokeRefreshChainSQL spends every unspent token of the chain of a
	// token that was spent already; a token never spent revokes nothing.
	revokeRefreshChainSQL = `UPDATE refresh_tokens SET used_at = $2
		WHERE used_at IS NULL AND chain = (SELECT chain FROM refresh_tokens WHERE token_hash = $1 AND used_at IS NOT NULL)`
	// revokeCodeChainSQL spends every unspent token of the chain a taken
	// code started, which is named by the code's hash.
	revokeCodeChainSQL = `UPDATE refresh_tokens SET used_at = $2
		WHERE used_at IS NULL AND chain = (SELECT code_hash FROM auth_codes WHERE code_hash = $1 AND used_at IS NOT NULL)`
)

// SigningKeys lists the issuer's keys, oldest first.
func (s *Store) SigningKeys(ctx context.Context) (keys []store.SigningKey, err error) {
	defer s.wrap(&err, "SigningKeys")
	rows, err := s.r.QueryContext(ctx, signingKeysSQL)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var k store.SigningKey
		if err := rows.Scan(&k.ID, &k.Algorithm, &k.PrivateJWK, instant{&k.CreatedAt}); err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, rows.Err()
}

// AddSigningKey stores k unless a key with its ID exists. A zero CreatedAt
// is taken as now.
func (s *Store) AddSigningKey(ctx context.Context, k store.SigningKey) (err error) {
	defer s.wrap(&err, "AddSigningKey")
	if k.CreatedAt.IsZero() {
		k.CreatedAt = time.Now()
	}
	_, err = s.w.ExecContext(ctx, addSigningKeySQL, k.ID, k.Algorithm, k.PrivateJWK, s.at(k.CreatedAt))
	return err
}

// AddAuthCode stores a new authorization code; a hash that exists is a
// conflict.
func (s *Store) AddAuthCode(ctx context.Context, c store.AuthCode) (err error) {
	defer s.wrap(&err, "AddAuthCode")
	_, err = s.w.ExecContext(ctx, addAuthCodeSQL, c.CodeHash, c.UserName, c.ClientID, c.RedirectURI,
		c.Challenge, c.ChallengeType, c.Scope, s.at(c.ExpiresAt))
	return err
}

// AuthCode reads a code that is unused and unexpired at now.
func (s *Store) AuthCode(ctx context.Context, codeHash string, now time.Time) (c store.AuthCode, err error) {
	defer s.wrap(&err, "AuthCode")
	return scanAuthCode(s.r.QueryRowContext(ctx, authCodeSQL, codeHash, s.at(now)))
}

// TakeAuthCode marks a code used and stores next, the first refresh token
// of the chain the code names, in one transaction.
func (s *Store) TakeAuthCode(ctx context.Context, codeHash string, now time.Time, next store.RefreshToken) (c store.AuthCode, err error) {
	defer s.wrap(&err, "TakeAuthCode")
	err = s.spendAndAdd(ctx, next, func(tx *sql.Tx) (chain string, err error) {
		c, err = scanAuthCode(tx.QueryRowContext(ctx, takeAuthCodeSQL, codeHash, s.at(now)))
		return c.CodeHash, err
	})
	return c, err
}

// scanAuthCode reads the row AuthCode and TakeAuthCode return.
func scanAuthCode(row *sql.Row) (c store.AuthCode, err error) {
	err = row.Scan(&c.CodeHash, &c.UserName, &c.ClientID, &c.RedirectURI, &c.Challenge, &c.ChallengeType, &c.Scope, instant{&c.ExpiresAt})
	if errors.Is(err, sql.ErrNoRows) {
		return store.AuthCode{}, notFound("unknown, used or expired authorization code")
	}
	return c, err
}

// spendAndAdd runs take, which spends a code or token and returns the
// chain it belongs to, then stores next in that chain, in one transaction:
// a second spend of the same code or token waits on the first's row lock
// (or SQLite's one writer) and then finds next there to revoke.
func (s *Store) spendAndAdd(ctx context.Context, next store.RefreshToken, take func(*sql.Tx) (string, error)) (err error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			rollback(tx)
		}
	}()
	if next.Chain, err = take(tx); err != nil {
		return err
	}
	if next.TokenHash == "" {
		return tx.Commit()
	}
	if _, err = tx.ExecContext(ctx, addRefreshTokenSQL, next.TokenHash, next.UserName, next.ClientID, next.Scope,
		s.at(next.ExpiresAt), next.Chain); err != nil {
		return err
	}
	return tx.Commit()
}

// AddRefreshToken stores a new refresh token; a hash that exists is a
// conflict.
func (s *Store) AddRefreshToken(ctx context.Context, r store.RefreshToken) (err error) {
	defer s.wrap(&err, "AddRefreshToken")
	_, err = s.w.ExecContext(ctx, addRefreshTokenSQL, r.TokenHash, r.UserName, r.ClientID, r.Scope, s.at(r.ExpiresAt), r.Chain)
	return err
}

// RefreshToken reads a refresh token that is unused and unexpired at now.
func (s *Store) RefreshToken(ctx context.Context, tokenHash string, now time.Time) (r store.RefreshToken, err error) {
	defer s.wrap(&err, "RefreshToken")
	return scanRefreshToken(s.r.QueryRowContext(ctx, refreshTokenSQL, tokenHash, s.at(now)))
}

// TakeRefreshToken marks a refresh token used and stores next, its
// successor in its chain, in one transaction.
func (s *Store) TakeRefreshToken(ctx context.Context, tokenHash string, now time.Time, next store.RefreshToken) (r store.RefreshToken, err error) {
	defer s.wrap(&err, "TakeRefreshToken")
	err = s.spendAndAdd(ctx, next, func(tx *sql.Tx) (chain string, err error) {
		r, err = scanRefreshToken(tx.QueryRowContext(ctx, takeRefreshTokenSQL, tokenHash, s.at(now)))
		return r.Chain, err
	})
	return r, err
}

// RevokeRefreshChain spends every token of the chain of tokenHash when
// tokenHash was spent already, and says how many it spent.
func (s *Store) RevokeRefreshChain(ctx context.Context, tokenHash string, now time.Time) (n int64, err error) {
	defer s.wrap(&err, "RevokeRefreshChain")
	return s.spend(ctx, revokeRefreshChainSQL, tokenHash, now)
}

// RevokeCodeChain spends every token of the chain a taken code started,
// and says how many it spent.
func (s *Store) RevokeCodeChain(ctx context.Context, codeHash string, now time.Time) (n int64, err error) {
	defer s.wrap(&err, "RevokeCodeChain")
	return s.spend(ctx, revokeCodeChainSQL, codeHash, now)
}

// spend runs a revocation, query with the hash and now, and says how many
// refresh tokens it spent.
func (s *Store) spend(ctx context.Context, query, hash string, now time.Time) (int64, error) {
	res, err := s.w.ExecContext(ctx, query, hash, s.at(now))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// scanRefreshToken reads the row RefreshToken and TakeRefreshToken return.
func scanRefreshToken(row *sql.Row) (r store.RefreshToken, err error) {
	err = row.Scan(&r.TokenHash, &r.UserName, &r.ClientID, &r.Scope, instant{&r.ExpiresAt}, &r.Chain)
	if errors.Is(err, sql.ErrNoRows) {
		return store.RefreshToken{}, notFound("unknown, used or expired refresh token")
	}
	return r, err
}
