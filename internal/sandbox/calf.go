package sandbox

import (
	"fmt"

	"github.com/drover-registry/drover/internal/livestock"
)

// Cow is keeper k's first registered cow, animal number 00001 of its herd:
// a dam for the calves the sandbox accepts.
func (k Keeper) Cow() livestock.CattleTag { return livestock.MustCattleTag(k.HerdMark, 1) }

// CalfTag is the ear tag of animal number n of keeper k's herd.
func (k Keeper) CalfTag(n int) livestock.CattleTag { return livestock.MustCattleTag(k.HerdMark, n) }

// CalfRegistration is a POST /v1/animals body with which keeper k
// registers a female dairy calf wearing tag, of k's first cow, born on k's
// producer holding three days before today and registered there today:
// a registration the sandbox accepts once tag is issued to k's herd (the
// sandbox issues animal numbers 00101–00150). The benchmark and the
// reliability tests send it by the thousand.
func (k Keeper) CalfRegistration(tag string, today livestock.Date) []byte {
	born := today.AddDays(-3)
	site := fmt.Sprintf(`{"identifiers":[{"identifier":%q,"type":"holdingNumber"}]}`, k.ProducerCPH().String())
	return fmt.Appendf(nil, `{"animal":{"identifier":%q,"species":"cattle","sex":"female","productionType":"dairy"},`+
		`"breed":{"code":"HOL"},"birth":{"site":%s,"date":%q,"year":%d,`+
		`"assistedBirthFlag":false,"multipleBirthsFlag":false,"embryoTransferFlag":false},`+
		`"registration":{"birthDam":{"identifier":%q},"site":%s,"date":%q,`+
		`"category":"birthRegistration","identificationDate":%q}}`,
		tag, site, born.String(), born.Time().Year(), k.Cow().String(), site, today.String(), born.String())
}
