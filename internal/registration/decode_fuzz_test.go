package registration

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
)

// registrationSeeds: the README's example (a published shape), each
// category, and near misses and nasty ones.
var registrationSeeds = []string{
	`{"animal":{"identifier":"UK442501500101","species":"cattle","sex":"female","productionType":"dairy"},"breed":{"code":"HOL"},` +
		`"birth":{"date":"2026-11-20","site":{"identifiers":[{"identifier":"01/100/0257","type":"holdingNumber"}]}},` +
		`"registration":{"category":"birthRegistration","date":"2026-11-22","site":{"identifiers":[{"identifier":"01/100/0257","type":"holdingNumber"}]},` +
		`"birthDam":{"identifier":"UK442501300001"}}}`,
	`{"animal":{"identifier":"UK 442501 50010 1","species":"Bison","sex":"male"},"OriginalIdentifier":"DE 0123456789",` +
		`"importParents":{"sire":{"identifier":"anything"},"birthDam":{"identifier":""}},"birth":{"date":"2020-01-01","year":2020},` +
		`"death":{"date":"2026-01-01","site":{"identifiers":[{"identifier":"12/345/6789"},{"identifier":" FSA123 ","type":"fsaNumber"}]}},` +
		`"registration":{"category":"registration","date":"2026-11-22","identificationDate":"2020-01-02","site":{"identifiers":[{"identifier":"01%2f100%2f0257"}]}}}`,
	`{"animal":{"identifier":"UK442501500101","species":"cattle"},"birth":{"date":"2026-02-30"},"registration":{"date":"","site":{"identifiers":[{"identifier":"x","type":"portNumber"}]}}}`,
	`{"animal":{"identifier":"UK0130181 00001","species":"sheep"},"registration":{"category":"birthRegistration","birthDam":{"identifier":"nope"},"site":{"identifiers":[]}}}`,
	`{"animal":{"species":"cattle\u0000"},"birth":{"year":"2020"}}`,
	"{\"animal\":{\"identifier\":\"\xff\xfe\",\"species\":\"cattle\"}}",
	`{"animal":{"identifier":"` + strings.Repeat("9", 5000) + `"}}`,
	`{"unknown":1}`, `{"birth":{"year":1e400}}`, `[]`, `null`, `{`, ``,
}

// FuzzDecode: a registration body is decoded without panic; a refusal is
// KindInvalid and each problem carries a code, a message and a JSON
// pointer to the field at fault ("" only when the body as a whole cannot
// be read); an accepted body's normal form is a fixed point, so the stored
// body reads back as the registration that was checked.
func FuzzDecode(f *testing.F) {
	for _, s := range registrationSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, w, err := decode(data)
		if err != nil {
			var e *livestock.Error
			if !errors.As(err, &e) || e.Kind != livestock.KindInvalid || len(e.Fields) == 0 {
				t.Fatalf("%q: error %#v is not an invalid-body error", data, err)
			}
			for _, f := range e.Fields {
				named := strings.HasPrefix(f.Source, "/") || (f.Source == "" && f.Code == livestock.CodeSchema)
				if f.Code == "" || f.Message == "" || !named {
					t.Fatalf("%q: error field %+v names no field", data, f)
				}
			}
			return
		}
		stored, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		r2, w2, err := decode(stored)
		if err != nil {
			t.Fatalf("%q: the normal form %s is refused: %v", data, stored, err)
		}
		if !reflect.DeepEqual(r, r2) {
			t.Fatalf("%q: the normal form %s reads back as another registration:\n%+v\n%+v", data, stored, r, r2)
		}
		if again, _ := json.Marshal(w2); string(again) != string(stored) {
			t.Fatalf("%q: normalising twice gives %s, then %s", data, stored, again)
		}
	})
}
