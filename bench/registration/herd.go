package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// What the benchmark registers: calves of a sandbox cow, each wearing an
// ear tag of keeper1's herd that the benchmark issues first.

// Herd 442501 is keeper1's, on 01/100/0257. The sandbox issues it animal
// numbers 00001–00005 (its cows) and 00101–00150; the benchmark issues
// 00151–99999 besides.
const (
	herdMark    = "442501"
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
	return livestock.MustCattleTag(herdMark, n).String()
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
		rows = append(rows, fmt.Sprintf("('%s', '%s', 'Cattle', '2024-01-01')", tagID(n), herdMark))
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

// calf is the registration of a female dairy calf of the sandbox cow
// UK442501300001, born on keeper1's producer holding 01/100/0257 three
// days before today and registered there today (internal/api's calf).
func calf(id string, today time.Time) []byte {
	born := today.AddDate(0, 0, -3)
	const site = `{"identifiers":[{"identifier":"01/100/0257","type":"holdingNumber"}]}`
	return fmt.Appendf(nil, `{"animal":{"identifier":%q,"species":"cattle","sex":"female","productionType":"dairy"},`+
		`"breed":{"code":"HOL"},"birth":{"site":%s,"date":%q,"year":%d},`+
		`"registration":{"birthDam":{"identifier":"UK442501300001"},"site":%s,"date":%q,`+
		`"category":"birthRegistration","identificationDate":%q}}`,
		id, site, born.Format(time.DateOnly), born.Year(), site, today.Format(time.DateOnly), born.Format(time.DateOnly))
}

// london is the zone of the registry's dates.
var london = func() *time.Location {
	l, err := time.LoadLocation("Europe/London")
	if err != nil {
		panic(err)
	}
	return l
}()
