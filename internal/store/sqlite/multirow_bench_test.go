package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkInsertRows measures what issue 21 suggested for the one
// committer: a group's inserts as multi-row statements rather than one
// statement a row. It inserts 64 rows shaped like a submission's request
// into the real schema's requests table (six indexes), in one transaction
// on the writer, either one prepared statement a row or two statements of
// 32 rows, and reports the time a row and the process's processor time a
// row (the committer's cost; the wall time holds the commit's fsync).
func BenchmarkInsertRows(b *testing.B) {
	const group = 64
	insert := func(rows int) string {
		one := "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
		return `INSERT INTO requests (type, status, user_name, request_date, updated_date, movement_date, species,
			correlation_id, is_full_undone, undo_supported, content, errors, warnings, document_ref, movement_month, holdings) VALUES ` +
			strings.TrimSuffix(strings.Repeat(one+", ", rows), ", ")
	}
	content := []byte(`{"species":"Sheep","sourceHolding":"40/000/0001","destinationHolding":"40/000/0002","transferDate":"2026-03-01"}`)
	n := 0
	row := func() []any {
		n++
		return []any{"TransferRequest", "Pending", fmt.Sprintf("keeper%d", n%50), "2026-03-01T10:00:00.000000Z",
			"2026-03-01T10:00:00.000000Z", "2026-03-01T00:00:00.000000Z", "Sheep", fmt.Sprintf("corr-%d", n), 0, 1,
			content, "[]", "[]", "", 202603, "40/000/0001 40/000/0002"}
	}
	for _, perStatement := range []int{1, group / 2} {
		b.Run(fmt.Sprintf("rows_a_statement=%d", perStatement), func(b *testing.B) {
			ctx := context.Background()
			w, r, err := openPools(ctx, filepath.Join(b.TempDir(), "drover.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			defer w.Close()
			if err := migrate(ctx, w); err != nil {
				b.Fatal(err)
			}
			stmt, err := w.PrepareContext(ctx, insert(perStatement))
			if err != nil {
				b.Fatal(err)
			}
			defer stmt.Close()
			cpu0 := processCPU(b)
			for b.Loop() {
				tx, err := w.BeginTx(ctx, nil)
				if err != nil {
					b.Fatal(err)
				}
				s := tx.StmtContext(ctx, stmt)
				for range group / perStatement {
					var args []any
					for range perStatement {
						args = append(args, row()...)
					}
					if _, err := s.ExecContext(ctx, args...); err != nil {
						b.Fatal(err)
					}
				}
				if err := tx.Commit(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*group), "ns/row")
			b.ReportMetric(float64((processCPU(b)-cpu0).Nanoseconds())/float64(b.N*group), "cpu-ns/row")
		})
	}
}

// processCPU is the processor time the process has used, user and system.
func processCPU(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
