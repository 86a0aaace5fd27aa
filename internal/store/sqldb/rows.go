package sqldb

import "context"

// scanFunc is a row's scan as a value with a Scan method, for the
// scanners that take a row.
type scanFunc func(dest ...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }

// eachRow runs a read query on the readers' pool and calls row for each
// row, through the dialect's own reader (Tuning.QueryEach) when it has
// one, else through database/sql.
func (s *Store) eachRow(ctx context.Context, query string, args []any, row func(scan func(dest ...any) error) error) error {
	if s.tune.QueryEach == nil {
		rows, err := s.r.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		return ReadRows(rows, row)
	}
	conn, err := s.r.DB.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(driverConn any) error {
		return s.tune.QueryEach(ctx, driverConn, query, args, row)
	})
}

// Rows is what ReadRows reads: database/sql's rows, or a driver's own.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// ReadRows calls row for each of rows, with its scan, and stops at the
// first error. The caller closes rows.
func ReadRows(rows Rows, row func(scan func(dest ...any) error) error) error {
	for rows.Next() {
		if err := row(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}
