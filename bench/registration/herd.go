package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/sandbox"
)

// What the benchmark registers: keeper1's sandbox calves
// (sandbox.Keeper.CalfRegistration), each wearing an ear tag of one of
// keeper1's herds that the benchmark issues first.

var keeper1 = sandbox.Keepers[0]

// keeper1's herd, 442501 on 01/100/0257: the sandbox issues it animal
// numbers 00001–00005 (its cows) and 00101–00150; the benchmark issues
// 00151–99999 besides. One herd's 99,849 ran out within 11 s of the sync
// load on a fast disk (7,200 registrations a second), so the benchmark
// adds three more herds of keeper1 on the same producer holding, where the
// rules look for a calf's herd, and issues each the same numbers.
var herds = [...]string{keeper1.HerdMark, "442601", "442602", "442603"}

const (
	firstNumber = 151
	perHerd     = 99999 - firstNumber + 1
	supply      = perHerd * len(herds)
)

// tagID is the printed ear tag of the benchmark's n-th animal, counted
// from firstNumber over the herds in turn, check digit and all, by the
// registry's own rule; below firstNumber, the sandbox's own animals of
// herd 442501. Past the supply's last it wraps round to its first: only
// the baseline, which stores bodies without reading them, counts that far.
func tagID(n int) string {
	if n < firstNumber {
		return keeper1.CalfTag(n).String()
	}
	mark, number := animal(n)
	return livestock.MustCattleTag(mark, number).String()
}

// animal is the herd mark and animal number of the benchmark's n-th
// animal (n ≥ firstNumber), wrapping round past the supply's last.
func animal(n int) (mark string, number int) {
	i := (n - firstNumber) % supply
	return herds[i/perHerd], firstNumber + i%perHerd
}

// issueTags adds the herds beyond the sandbox's to keeper1's producer
// holding, and the tags of the supply to issued_tags, once the server has
// made the schema and seeded the sandbox.
func (t *target) issueTags(ctx context.Context) error {
	tx, err := t.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, mark := range herds[1:] {
		if _, err := tx.ExecContext(ctx, "INSERT INTO flocks (mark, species, cph) VALUES ($1, 'Cattle', $2)",
			mark, keeper1.ProducerCPH().String()); err != nil {
			return fmt.Errorf("add herd %s: %w", mark, err)
		}
	}
	var rows []string
	for n := firstNumber; n < firstNumber+supply; n++ {
		mark, _ := animal(n)
		rows = append(rows, fmt.Sprintf("('%s', '%s', 'Cattle', '2024-01-01')", tagID(n), mark))
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
