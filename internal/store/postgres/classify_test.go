package postgres

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/drover-registry/drover/internal/livestock"
)

// What a lost server looks like through pgx is unavailable (503), never
// an internal fault (500).
func TestClassifyLostConnection(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		err  error
		want livestock.Kind
	}{
		{"conn closed in the pool", fmt.Errorf("begin: %w", pgconn.ErrConnClosed), livestock.KindUnavailable},
		{"cut mid-query", fmt.Errorf("query: %w", io.ErrUnexpectedEOF), livestock.KindUnavailable},
		{"closed by the server", io.EOF, livestock.KindUnavailable},
		{"too many connections", &pgconn.PgError{Code: "53300"}, livestock.KindUnavailable},
		{"admin shutdown", &pgconn.PgError{Code: "57P01"}, livestock.KindUnavailable},
		{"unique violation", &pgconn.PgError{Code: "23505"}, livestock.KindConflict},
		{"syntax error", &pgconn.PgError{Code: "42601"}, livestock.KindInternal},
		{"anything else", errors.New("boom"), livestock.KindInternal},
	} {
		if got := classify(tc.err); got != tc.want {
			t.Errorf("%s: classify(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
	// A request's deadline stays visible through the store's error, for
	// the 504 the API answers then.
	err := dialect.Error("Op", fmt.Errorf("read: %w", context.DeadlineExceeded))
	if livestock.ErrorKind(err) != livestock.KindUnavailable || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("deadline: %v", err)
	}
}

// A server that refuses the connection itself, with a code of its own
// (here 3D000, no such database; 55000 when the database is closed to
// connections), is unavailable too: the operator's outage, not a fault.
func TestClassifyRefusedConnection(t *testing.T) {
	t.Parallel()
	base := os.Getenv("DROVER_TEST_POSTGRES")
	if base == "" {
		t.Skip("DROVER_TEST_POSTGRES is not set")
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/drover_no_such_database"
	conn, err := pgconn.Connect(t.Context(), u.String())
	if err == nil {
		conn.Close(t.Context())
		t.Fatal("connected to a database that does not exist")
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "3D000" {
		t.Fatalf("connect: %v; want the server's 3D000", err)
	}
	if got := classify(err); got != livestock.KindUnavailable {
		t.Errorf("classify(%v) = %v, want unavailable", err, got)
	}
}

func TestPoolConfigDefaults(t *testing.T) {
	t.Parallel()
	cfg, err := poolConfig("postgres://u@localhost/db")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ConnConfig.ConnectTimeout != defaultConnectTimeout || cfg.HealthCheckPeriod != defaultHealthCheck {
		t.Errorf("defaults: connect %s, health %s", cfg.ConnConfig.ConnectTimeout, cfg.HealthCheckPeriod)
	}
	cfg, err = poolConfig("postgres://u@localhost/db?connect_timeout=9&pool_health_check_period=1m")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ConnConfig.ConnectTimeout.Seconds() != 9 || cfg.HealthCheckPeriod.Minutes() != 1 {
		t.Errorf("URL settings: connect %s, health %s", cfg.ConnConfig.ConnectTimeout, cfg.HealthCheckPeriod)
	}
}

// A cancel request the server never answers gives up after cancelTimeout,
// not after pgx's 15 seconds.
func TestCancelRequestIsBounded(t *testing.T) {
	t.Parallel()
	client, server := net.Pipe()
	defer server.Close()
	go func() { _, _ = io.Copy(io.Discard, server) }() // reads, never answers
	c := &cancelConn{Conn: client}
	msg := make([]byte, 16)
	binary.BigEndian.PutUint32(msg[0:4], 16)
	binary.BigEndian.PutUint32(msg[4:8], cancelRequestCode)
	if _, err := c.Write(msg); err != nil {
		t.Fatal(err)
	}
	var ne net.Error
	if _, err := c.Read(msg); !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("read after a cancel request: %v, want a timeout", err)
	}
}
