package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/drover-registry/drover/internal/sandbox"
)

// What the benchmark registers: keeper1's sandbox calves
// (sandbox.Keeper.CalfRegistration), each wearing an ear tag of keeper1's
// herd that the benchmark issues first.

// keeper1's herd, 442501 on 01/100/0257: the sandbox issues it animal
// numbers 00001–00005 (its cows) and 00101–00150; the benchmark issues
// 00151–99999 besides.
var keeper1 = sandbox.Keepers[0]

const (
	firstNumber = 151
	supply      = 99999 - firstNumber + 1
)

// tagID is the printed ear tag of animal number n of the herd, check digit
// and all, by the registry's own rule. Numbers past the herd's last wrap
// round to its first: only the baseline, which stores bodies without
// reading them, counts that far (a fast one made 89,000 in 20 s).
func tagID(n int) string {
	if n > firstNumber+supply-1 {
		n = firstNumber + (n-firstNumber)%supply
	}
	return keeper1.CalfTag(n).String()
}

// issueTags adds the herd's tags 00151–99999 to issued_tags, once the
// server has made the schema and seeded the sandbox.
func (t *target) issueTags(ctx context.Context) error {
	tx, err := t.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var rows []string
	for n := firstNumber; n < firstNumber+supply; n++ {
		rows = append(rows, fmt.Sprintf("('%s', '%s', 'Cattle', '2024-01-01')", tagID(n), keeper1.HerdMark))
		if len(rows) == 1000 || n == firstNumber+supply-1 {
			if _, err := tx.ExecContext(ctx, "INSERT INTO issued_tags (identifier, mark, species, issued_on) VALUES "+
				strings.Join(rows, ", ")); err != nil {
				return fmt.Errorf("issue tags: %w", err)
			}
			rows = rows[:0]
		}
	}
	return tx.Commit()
}
