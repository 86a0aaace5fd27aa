package harness

import (
	"fmt"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// What the loads register, all as keeper1: calves of its sandbox cow
// UK442501300001, each wearing a new ear tag of its herd.

// Herd is keeper1's herd mark, on its producer holding 01/100/0257. The
// sandbox issues it animal numbers 00001–00005 (its cows) and 00101–00150;
// a test that needs more issues them itself.
const Herd = "442501"

// CalfTag is the printed ear tag of animal number n of the herd.
func CalfTag(n int) string { return livestock.MustCattleTag(Herd, n).String() }

// Today is the registry's date: "today" turns at midnight in London.
func Today() livestock.Date { return livestock.UKDate(time.Now()) }

// Calf is the registration of a female dairy calf wearing tag, of the
// sandbox cow UK442501300001, born on 01/100/0257 three days before today
// and registered there today (bench/registration's calf).
func Calf(tag string, today livestock.Date) []byte {
	born := today.AddDays(-3)
	const site = `{"identifiers":[{"identifier":"01/100/0257","type":"holdingNumber"}]}`
	return fmt.Appendf(nil, `{"animal":{"identifier":%q,"species":"cattle","sex":"female","productionType":"dairy"},`+
		`"breed":{"code":"HOL"},"birth":{"site":%s,"date":%q,"year":%d},`+
		`"registration":{"birthDam":{"identifier":"UK442501300001"},"site":%s,"date":%q,`+
		`"category":"birthRegistration","identificationDate":%q}}`,
		tag, site, born.String(), born.Time().Year(), site, today.String(), born.String())
}
