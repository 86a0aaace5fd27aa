package postgres

import (
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// How the pool behaves when the server goes away, unless the URL says
// otherwise (connect_timeout, pool_health_check_period).
//
// Without a connect timeout, a connection attempt into a network that
// drops packets waits as long as the kernel does (minutes): the pool slot
// it holds is lost for that time, and a committer (whose transactions do
// not follow any request's context) hangs with it. Two seconds is many
// round trips even across regions, and bounds how long after the server
// returns a stuck attempt can delay recovery.
//
// The pool already pings a connection idle for over a second before
// handing it out, so a connection the outage killed is not reused; the
// health check clears the rest of them, and refills MinConns, soon after
// the server is back rather than a minute later.
//
// A transaction left open by a replica that stopped (SIGSTOP, a frozen
// network path whose sockets stay up) keeps its locks, the lock on moves
// among them, and every replica's jobs wait behind it: TCP keepalives do
// not end it while the path still answers. PostgreSQL ends a session idle
// inside a transaction for longer than idleInTransaction, which no
// transaction of Drover's comes near (it sends its next statement within
// milliseconds), so the locks go within seconds.
const (
	defaultConnectTimeout = 2 * time.Second
	defaultHealthCheck    = 5 * time.Second
	idleInTransaction     = "10s"
)

// poolConfig parses url and applies the defaults above where it sets none.
func poolConfig(url string) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err) // pgx hides the password
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = defaultConnectTimeout
	}
	cfg.ConnConfig.DialFunc = boundDial(cfg.ConnConfig.DialFunc, cfg.ConnConfig.ConnectTimeout)
	if !strings.Contains(url, "pool_health_check_period") {
		cfg.HealthCheckPeriod = defaultHealthCheck
	}
	if _, ok := cfg.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"]; !ok {
		cfg.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"] = idleInTransaction
	}
	return cfg, nil
}
