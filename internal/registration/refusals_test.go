package registration

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// TestRefusals: every rule, broken in sync mode, is a 400 naming the code
// and field and keeps nothing (no registration, animal, job or reply).
// The same body in async mode is queued and its job fails it with the
// same problems, registering nothing. Format problems and acting for
// another's holding are refused at once in both modes.
func TestRefusals(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, b *bundle) {
		k1, k2, inspector := b.user("keeper1"), b.user("keeper2"), b.user("inspector")
		cow, cow2 := tag(t, "442501", 1), tag(t, "442501", 2)
		// Parents that break the dam rules, registered first.
		bull, buffalo, deadCow := tag(t, "442501", 110), tag(t, "442501", 111), tag(t, "442501", 112)
		b.mustSubmit(k1, other(bull, "cattle", "male"), false, "", 200)
		b.mustSubmit(k1, other(buffalo, "buffalo", "female"), false, "", 200)
		b.mustSubmit(k1, other(deadCow, "cattle", "female").set("death", map[string]any{"date": "2026-05-01", "site": holdingSite(farm1),
			"createdDateTime": "2026-05-02T09:00:00.000Z", "updatedDateTime": "2026-05-02T10:00:00+01:00"}), false, "", 200)
		youngCow := tag(t, "442501", 113) // born 2025-01-15
		b.mustSubmit(k1, other(youngCow, "cattle", "female"), false, "", 200)
		// A registration site's identifiers may add an FSA number to its
		// holding, or give the holding again.
		b.mustSubmit(k1, other(tag(t, "442501", 114), "cattle", "female").set("registration.site.identifiers", []any{
			map[string]any{"identifier": farm1, "type": "holdingNumber"}, map[string]any{"identifier": "FSA123", "type": "fsaNumber"},
			map[string]any{"identifier": farm1, "type": "holdingNumber"}}), false, "", 200)
		// A cow of keeper1's on keeper1's abattoir holding.
		awayCow := tag(t, "442501", 3)
		if err := b.store.InTx(b.ctx, func(ctx context.Context, tx store.Tx) error {
			return tx.MoveAnimals(ctx, []string{awayCow}, livestock.MustCPH(otherFarm1), time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC))
		}); err != nil {
			t.Fatal(err)
		}
		if a, err := b.store.Animal(b.ctx, deadCow); err != nil || a.State != livestock.StateDead {
			t.Fatalf("dead cow = %+v, %v", a, err)
		}

		id := tag(t, "442501", 120)
		born := "2026-06-07"
		badDigit := []byte(id)
		badDigit[8] = '0' + (badDigit[8]-'0')%7 + 1
		p := func(code livestock.Code, source string) []problem { return []problem{{code, source}} }
		for _, tc := range []struct {
			name   string
			user   livestock.User
			body   reg
			kind   livestock.Kind
			want   []problem
			atOnce bool // refused before queueing in async mode too
		}{
			{"registered already", k1, calf(cow, cow2, born), livestock.KindInvalid, p("V032", "/animal/identifier"), false},
			{"never issued", k1, calf(tag(t, "442501", 50), cow, born), livestock.KindInvalid, p("V031", "/animal/identifier"), false},
			{"issued to another holding", k1, calf(tag(t, "442502", 120), cow, born), livestock.KindInvalid, p("V031", "/animal/identifier"), false},
			{"unknown breed", k1, calf(id, cow, born).set("breed.code", "ZZZ"), livestock.KindInvalid, p("V033", "/breed/code"), false},
			{"breed of another species", k1, calf(id, cow, born).set("breed.code", "WBF"), livestock.KindInvalid, p("V033", "/breed/code"), false},
			{"death created on 30 February", k1, other(id, "cattle", "male").set("death", map[string]any{"date": "2026-06-01", "createdDateTime": "2026-02-30T10:15:00Z"}),
				livestock.KindInvalid, p("S008", "/death/createdDateTime"), true},
			{"death updated at an offset of +01:60", k1, other(id, "cattle", "male").set("death", map[string]any{"date": "2026-06-01", "updatedDateTime": "2026-06-03T10:15:00+01:60"}),
				livestock.KindInvalid, p("S008", "/death/updatedDateTime"), true},
			// Only the malformed holding is blamed, not the FSA number after it.
			{"malformed registration holding", k1, calf(id, cow, born).set("registration.site.identifiers", []any{
				map[string]any{"identifier": "bad"}, map[string]any{"identifier": "X1", "type": "fsaNumber"}}),
				livestock.KindInvalid, p("S008", "/registration/site/identifiers/0/identifier"), true},
			// Born here: as category registration it would escape
			// the deadline, W003 and the movement restriction.
			{"born here, registered as an import", k1, other(id, "cattle", "male").set("birth.site", holdingSite(farm1)),
				livestock.KindInvalid, p("V049", "/birth/site/identifiers/0/identifier"), false},
			{"a port of birth that is only spaces", k1, other(id, "cattle", "male").set("birth.site.identifiers", []any{
				map[string]any{"identifier": "   ", "type": "portNumber"}}), livestock.KindInvalid,
				p("S007", "/birth/site/identifiers/0/identifier"), true},
			{"born on two holdings", k1, calf(id, cow, born).set("birth.site.identifiers", []any{
				map[string]any{"identifier": "01/100/0264"}, map[string]any{"identifier": farm1}}),
				livestock.KindInvalid, p("S008", "/birth/site/identifiers/1/identifier"), true},
			{"empty importParents on a birth registration", k1, calf(id, cow, born).set("importParents", map[string]any{}),
				livestock.KindInvalid, p("V045", "/importParents"), false},
			{"empty breed", k1, calf(id, cow, born).set("breed.code", ""), livestock.KindInvalid, p("V033", "/breed/code"), true},
			{"blank breed", k1, calf(id, cow, born).set("breed.code", "  "), livestock.KindInvalid, p("V033", "/breed/code"), true},
			{"unknown birth site", k1, other(id, "cattle", "male").set("birth.site", holdingSite(unknownCPH)), livestock.KindInvalid,
				p("V038", "/birth/site/identifiers/0/identifier"), false},
			{"unknown death site", k1, other(id, "cattle", "male").set("death", map[string]any{"date": "2026-06-01", "site": holdingSite(unknownCPH)}),
				livestock.KindInvalid, p("V034", "/death/site/identifiers/0/identifier"), false},
			{"unknown carcass collection site, and death site", k1, other(id, "cattle", "male").set("death", map[string]any{"date": "2026-06-01",
				"site": holdingSite(unknownCPH), "carcassCollectionSite": holdingSite(unknownCPH)}),
				livestock.KindInvalid, []problem{{"V034", "/death/site/identifiers/0/identifier"}, {"V034", "/death/carcassCollectionSite/identifiers/0/identifier"}}, false},
			{"carcass collection site on two holdings", k1, other(id, "cattle", "male").set("death", map[string]any{"date": "2026-06-01",
				"carcassCollectionSite": map[string]any{"identifiers": []any{map[string]any{"identifier": farm1}, map[string]any{"identifier": "01/100/0264"}}}}),
				livestock.KindInvalid, p("S008", "/death/carcassCollectionSite/identifiers/1/identifier"), true},
			{"registered tomorrow", k1, calf(id, cow, born).set("registration.date", "2026-06-11"), livestock.KindInvalid,
				p("V035", "/registration/date"), false},
			{"identified before birth", k1, calf(id, cow, born).set("registration.identificationDate", "2026-06-06"), livestock.KindInvalid,
				p("V035", "/registration/identificationDate"), false},
			{"birth year", k1, calf(id, cow, born).set("birth.year", 2025), livestock.KindInvalid, p("V036", "/birth/year"), false},
			{"death before birth", k1, other(id, "cattle", "male").set("death", map[string]any{"date": "2024-12-01", "site": holdingSite(farm1)}),
				livestock.KindInvalid, p("V037", "/death/date"), false},
			{"born elsewhere", k1, calf(id, cow, born).set("birth.site", holdingSite(otherFarm1)), livestock.KindInvalid, p("V039", "/birth/site"), false},
			{"dam not registered", k1, calf(id, tag(t, "442501", 102), born), livestock.KindInvalid, p("V040", "/registration/birthDam/identifier"), false},
			{"dam not female", k1, calf(id, bull, born), livestock.KindInvalid, p("V041", "/registration/birthDam/identifier"), false},
			{"dam of another species", k1, calf(id, buffalo, born), livestock.KindInvalid, p("V006", "/registration/birthDam/identifier"), false},
			{"dam dead", k1, calf(id, deadCow, born), livestock.KindInvalid, p("V042", "/registration/birthDam/identifier"), false},
			{"dam on another of the keeper's holdings", k1, calf(id, awayCow, born), livestock.KindInvalid, p("V043", "/registration/birthDam/identifier"), false},
			// Another keeper's cow is not the registrant's to learn of: as
			// a dam she is not registered.
			{"dam on another keeper's holding", k1, calf(id, tag(t, "442502", 1), born), livestock.KindInvalid, p("V040", "/registration/birthDam/identifier"), false},
			{"dam born after the calf", k1, calf(id, youngCow, "2024-06-07"), livestock.KindInvalid, p("V048", "/registration/birthDam/identifier"), false},
			{"genetic dam not female", k1, calf(id, cow, born).set("registration.geneticDam", map[string]any{"identifier": bull}), livestock.KindInvalid,
				p("V041", "/registration/geneticDam/identifier"), false},
			{"genetic dam of another species", k1, calf(id, cow, born).set("registration.geneticDam", map[string]any{"identifier": buffalo}),
				livestock.KindInvalid, p("V006", "/registration/geneticDam/identifier"), false},
			{"genetic dam born after the calf", k1, calf(id, cow, "2024-06-07").set("registration.geneticDam", map[string]any{"identifier": youngCow}),
				livestock.KindInvalid, p("V048", "/registration/geneticDam/identifier"), false},
			{"genetic dam the calf itself", k1, calf(id, cow, born).set("registration.geneticDam", map[string]any{"identifier": id}),
				livestock.KindInvalid, p("V048", "/registration/geneticDam/identifier"), false},
			{"sire not male", k1, calf(id, cow, born).set("registration.sire", map[string]any{"identifier": cow2}), livestock.KindInvalid,
				p("V044", "/registration/sire/identifier"), false},
			// An import's parents may be anything, but one that reads as a
			// tag of the species is that animal, however written.
			{"an import's sire the animal itself, spaced", k1, other(id, "cattle", "male").set("registration.sire",
				map[string]any{"identifier": spaced(id)}), livestock.KindInvalid,
				p("V044", "/registration/sire/identifier"), false},
			{"an import's dam not female, spaced", k1, other(id, "cattle", "male").set("registration.birthDam",
				map[string]any{"identifier": spaced(bull)}), livestock.KindInvalid, p("V041", "/registration/birthDam/identifier"), false},
			{"original identifier on a birth", k1, calf(id, cow, born).set("OriginalIdentifier", "DE0123456789"), livestock.KindInvalid,
				p("V045", "/OriginalIdentifier"), false},
			{"import parents on a birth", k1, calf(id, cow, born).set("importParents.sire", map[string]any{"identifier": "x"}), livestock.KindInvalid,
				p("V045", "/importParents"), false},
			{"no dam", k1, calf(id, cow, born).set("registration.birthDam", nil), livestock.KindInvalid, p("V046", "/registration/birthDam/identifier"), false},
			{"every broken rule", k1, calf(id, "", born).set("breed.code", "ZZZ").set("birth.year", 2025), livestock.KindInvalid,
				[]problem{{"V033", "/breed/code"}, {"V036", "/birth/year"}, {"V046", "/registration/birthDam/identifier"}}, false},

			{"check digit", k1, calf(string(badDigit), cow, born), livestock.KindInvalid, p("S008", "/animal/identifier"), true},
			{"malformed dam", k1, calf(id, "nope", born), livestock.KindInvalid, p("S008", "/registration/birthDam/identifier"), true},
			{"born in the year 0", k1, calf(id, cow, "0000-01-01").set("birth.year", nil).set("registration.identificationDate", nil),
				livestock.KindInvalid, p("S008", "/birth/date"), true},
			{"registration site not a holding", k1, calf(id, cow, born).set("registration.site.identifiers",
				[]any{map[string]any{"identifier": "FSA123", "type": "fsaNumber"}}), livestock.KindInvalid,
				p("V047", "/registration/site/identifiers/0/type"), true},
			{"a second holding in the registration site", k1, calf(id, cow, born).set("registration.site.identifiers",
				[]any{map[string]any{"identifier": farm1, "type": "holdingNumber"}, map[string]any{"identifier": "FSA123", "type": "fsaNumber"},
					map[string]any{"identifier": otherFarm1, "type": "holdingNumber"}}), livestock.KindInvalid,
				p("V047", "/registration/site/identifiers/2/identifier"), true},
			{"unknown member", k1, calf(id, cow, born).set("colour", "red"), livestock.KindInvalid, p("S013", ""), true},
			{"another keeper's holding", k2, calf(id, cow, born), livestock.KindInvalid, p("V047", "/registration/site/identifiers/0/identifier"), true},
			{"inspector", inspector, calf(id, cow, born), livestock.KindInvalid, p("V047", "/registration/site/identifiers/0/identifier"), true},
		} {
			body := tc.body.bytes(t)
			before := b.rows()
			_, err := b.submit(tc.user, body, false, "corr-"+tc.name)
			if kind, got := refusal(err); kind != tc.kind || !cmp.Equal(tc.want, got) {
				t.Errorf("%s: sync = %v %+v, want %v %+v", tc.name, kind, got, tc.kind, tc.want)
			}
			if after := b.rows(); after != before {
				t.Errorf("%s: sync refusal changed the rows: %+v → %+v", tc.name, before, after)
			}

			a, err := b.submit(tc.user, body, true, "")
			if tc.atOnce {
				if kind, got := refusal(err); kind != tc.kind || !cmp.Equal(tc.want, got) {
					t.Errorf("%s: async = %v %+v, want %v %+v", tc.name, kind, got, tc.kind, tc.want)
				}
				if after := b.rows(); after != before {
					t.Errorf("%s: async refusal changed the rows: %+v → %+v", tc.name, before, after)
				}
				continue
			}
			if err != nil || a.Status != 202 {
				t.Errorf("%s: async = %d %s, %v; want 202", tc.name, a.Status, a.Body, err)
				continue
			}
			b.runJob()
			r, err := b.store.Registration(b.ctx, a.RequestID)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, fieldProblems(r.Errors)); r.Status != store.RegistrationFailed || r.Identifier != "" || diff != "" {
				t.Errorf("%s: async ended %s %q, errors (-want +got):\n%s", tc.name, r.Status, r.Identifier, diff)
			}
			want := rows{before.Registrations + 1, before.Animals, before.Jobs + 1, before.Replies}
			if after := b.rows(); after != want {
				t.Errorf("%s: after the failed job rows = %+v, want %+v", tc.name, after, want)
			}
		}
	})
}

// spaced is a cattle tag as printed on the tag, spaced: UK 442501 2 00147.
func spaced(tag string) string { return tag[:2] + " " + tag[2:8] + " " + tag[8:9] + " " + tag[9:] }
