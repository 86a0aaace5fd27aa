package registration

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/standing"
)

// TestLiveAnimalBodies: bodies in the live service's Animal shape are
// registered with their meaning: no birth, a birth by its year, death
// null, a death reason by id, animal.originalIdentifier, and the members
// the register fills in sent back as read (and not kept).
func TestLiveAnimalBodies(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, b *bundle) {
		k1 := b.user("keeper1")
		diedID := standing.ReferenceID("deathReason", "diedOnHolding")

		noBirth := tag(t, "442501", 120)
		b.mustSubmit(k1, other(noBirth, "cattle", "male").set("birth", nil).set("death", json.RawMessage("null")), false, "", 200)
		if a, err := b.store.Animal(b.ctx, noBirth); err != nil || !a.BirthDate.IsZero() || a.State != livestock.StateRegistered {
			t.Errorf("no birth: %+v, %v", a, err)
		}

		byYear := tag(t, "442501", 121)
		b.mustSubmit(k1, other(byYear, "cattle", "female").set("birth.date", nil).set("birth.year", 2025).
			set("animal.genotype", "ARR/ARR").set("animal.originalIdentifier", "USA005516557866").set("animal.state", "dead").
			set("currentSite", map[string]any{"type": map[string]any{"type": "producer", "description": "x"}, "identifiers": []any{}}).
			set("createdDateTime", "2026-01-01T00:00:00Z").set("registration.site.type", map[string]any{"type": "producer", "description": "x"}),
			false, "", 200)
		a, err := b.store.Animal(b.ctx, byYear)
		if err != nil || !a.BirthDate.IsZero() || a.OriginalIdentifier != "USA005516557866" || a.State != livestock.StateRegistered {
			t.Errorf("born in 2025: %+v, %v", a, err)
		}
		var kept map[string]any
		_ = json.Unmarshal(a.Record, &kept)
		if _, ok := kept["currentSite"]; ok || kept["animal"].(map[string]any)["state"] != nil ||
			kept["registration"].(map[string]any)["site"].(map[string]any)["type"] != nil {
			t.Errorf("read-only members kept: %s", a.Record)
		}

		dead := tag(t, "442501", 122)
		b.mustSubmit(k1, other(dead, "cattle", "female").set("death", map[string]any{"date": "2026-05-01",
			"reason": map[string]any{"id": diedID}}), false, "", 200)
		a, _ = b.store.Animal(b.ctx, dead)
		var w body
		_ = json.Unmarshal(a.Record, &w)
		if a.State != livestock.StateDead || w.Death == nil || w.Death.Reason == nil || w.Death.Reason.Name != "Died on the holding" {
			t.Errorf("dead by reason id: %s %s", a.State, a.Record)
		}
		// Registered after its death, it was on the holding from its death
		// at the latest: its stay never ends before it began.
		if a.OnSince.After(a.DeathDate) {
			t.Errorf("registered after its death on %s: on the holding since %s", a.DeathDate, a.OnSince)
		}

		byName := tag(t, "442501", 124)
		b.mustSubmit(k1, other(byName, "cattle", "female").set("death", map[string]any{"date": "2026-05-01",
			"reason": map[string]any{"name": " died ON the holding"}}), false, "", 200)
		a, _ = b.store.Animal(b.ctx, byName)
		w = body{}
		_ = json.Unmarshal(a.Record, &w)
		if w.Death == nil || w.Death.Reason == nil || w.Death.Reason.Name != "Died on the holding" || w.Death.Reason.ID != diedID {
			t.Errorf("dead by reason name: %s", a.Record)
		}

		id := tag(t, "442501", 123)
		for _, tc := range []struct {
			name string
			body reg
			want []problem
		}{
			{"a death reason id not in the list", other(id, "cattle", "male").set("death", map[string]any{"date": "2026-05-01",
				"reason": map[string]any{"id": "0b6f3c1e-8d2a-4f57-9c1b-2e4d6a8f0c31"}}),
				[]problem{{livestock.CodeBadEnum, "/death/reason/id"}}},
			{"a death reason name not in the list", other(id, "cattle", "male").set("death", map[string]any{"date": "2026-05-01",
				"reason": map[string]any{"name": "abducted by aliens"}}),
				[]problem{{livestock.CodeBadEnum, "/death/reason/name"}}},
			{"a death reason with neither", other(id, "cattle", "male").set("death", map[string]any{"date": "2026-05-01",
				"reason": map[string]any{}}),
				[]problem{{livestock.CodeBadEnum, "/death/reason/name"}}},
			{"a death without its date", other(id, "cattle", "male").set("death", map[string]any{"reason": map[string]any{"id": diedID}}),
				[]problem{{livestock.CodeMissing, "/death/date"}}},
			{"a birth with neither date nor year", other(id, "cattle", "male").set("birth.date", nil).set("birth.year", nil).
				set("birth.mark", "442501"), []problem{{livestock.CodeMissing, "/birth/date"}}},
			{"a calf's birth registration by year", calf(id, tag(t, "442501", 1), "2026-06-07").set("birth.date", nil),
				[]problem{{livestock.CodeMissing, "/birth/date"}}},
			{"born after the registration, by year", other(id, "cattle", "male").set("birth.date", nil).set("birth.year", 2027),
				[]problem{{livestock.CodeDateOrder, "/birth/year"}}},
			{"a birth without its flags", calf(id, tag(t, "442501", 1), "2026-06-07").set("birth.assistedBirthFlag", nil).
				set("birth.multipleBirthsFlag", nil).set("birth.embryoTransferFlag", nil),
				[]problem{{livestock.CodeMissing, "/birth/assistedBirthFlag"}, {livestock.CodeMissing, "/birth/multipleBirthsFlag"},
					{livestock.CodeMissing, "/birth/embryoTransferFlag"}}},
			{"a birth with the flag's other spelling", calf(id, "nope", "2026-06-07").set("birth.multipleBirthsFlag", nil).
				set("birth.multipleBirthFlag", true), []problem{{livestock.CodeBadFormat, "/registration/birthDam/identifier"}}},
			{"an import whose two original identifiers disagree", other(id, "cattle", "male").set("animal.originalIdentifier", "FR1").
				set("OriginalIdentifier", "FR2"), []problem{{livestock.CodeBadFormat, "/OriginalIdentifier"}}},
			{"a calf with the live originalIdentifier", calf(id, tag(t, "442501", 1), "2026-06-07").set("animal.originalIdentifier", "FR1"),
				[]problem{{livestock.CodeImportOnly, "/animal/originalIdentifier"}}},
		} {
			_, err := b.submit(k1, tc.body.bytes(t), false, "")
			kind, got := refusal(err)
			if kind != livestock.KindInvalid || !cmp.Equal(tc.want, got) {
				t.Errorf("%s: %v %v, want %v", tc.name, kind, got, tc.want)
			}
		}
	})
}
