package sqldb

import "context"

// scanFunc scans one row into dest, as sql.Rows.Scan does.
type scanFunc func(dest ...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }

// eachRow runs a read query on the readers' pool and calls row for each
// row, through the dialect's own reader (Tuning.QueryEach) when it has
// one, else through database/sql.
func (s *Store) eachRow(ctx context.Context, query string, args []any, row func(scanFunc) error) error {
	if s.tune.QueryEach == nil {
		rows, err := s.r.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			if err := row(rows.Scan); err != nil {
				return err
			}
		}
		return rows.Err()
	}
	conn, err := s.r.DB.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(driverConn any) error {
		return s.tune.QueryEach(ctx, driverConn, query, args, func(scan func(dest ...any) error) error {
			return row(scan)
		})
	})
}
