package standing

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
)

func builtInLists(t *testing.T) *Lists {
	t.Helper()
	l, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// writeDir makes an operator directory holding files.
func writeDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestBuiltInLists(t *testing.T) {
	t.Parallel()
	l := builtInLists(t)
	want := []string{
		"cattleBreeds", "counties", "deathReason", "departureHoldingType", "destinationHoldingType",
		"documentType", "gender", "genderSpecies", "genotype", "goatBreeds", "haulier", "metFCIWithdrawalPeriod",
		"processingFlags", "productionType", "registrationCategory", "rejectionReason", "requestType", "sex",
		"sheepBreeds", "siteIdentifierType", "species", "stockType", "title", "transporterType",
	}
	var got []string
	for _, info := range l.Names() {
		got = append(got, info.Name)
		if info.Description == "" {
			t.Errorf("%s has no description", info.Name)
		}
		entries, err := l.List(info.Name)
		if err != nil || len(entries) == 0 {
			t.Errorf("List(%q) = %d entries, %v", info.Name, len(entries), err)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Names() (-want +got):\n%s", diff)
	}
}

// TestBuiltInContent checks the values other code relies on.
func TestBuiltInContent(t *testing.T) {
	t.Parallel()
	l := builtInLists(t)
	codes := func(list string) []string {
		entries, err := l.List(list)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			out = append(out, e.Code)
		}
		return out
	}
	var holdingTypes []string
	for _, h := range livestock.HoldingTypes {
		holdingTypes = append(holdingTypes, string(h))
	}
	tests := []struct {
		list string
		want []string
	}{
		{"departureHoldingType", holdingTypes},
		{"destinationHoldingType", holdingTypes},
		{"species", []string{"Sheep", "Goats", "Deer", "Cattle", "Bison", "Buffalo", "Pigs"}},
		{"requestType", []string{"TransferRequest", "CorrectTransferRequest", "ReviewHoldingMovementRequest", "UndoRequest"}},
		{"productionType", []string{"meat", "dairy", "beef", "laying"}},
		{"siteIdentifierType", []string{"holdingNumber", "fsaNumber", "portNumber", "lipNumber"}},
		{"registrationCategory", []string{"birthRegistration", "registration"}},
		{"sex", []string{"male", "female"}},
		{"gender", []string{"Male", "Female", "Castrated"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, codes(tt.list)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.list, diff)
		}
	}
	has := []struct {
		list, code string
		want       bool
	}{
		{"sheepBreeds", "TEX", true}, {"sheepBreeds", "SBF", true}, {"goatBreeds", "BOE", true},
		{"cattleBreeds", "AA", true}, {"cattleBreeds", "BBX", true}, {"cattleBreeds", "BIS", true},
		{"counties", "01", true}, {"counties", "66", true}, {"counties", "98", true}, {"counties", "99", false},
		{"species", "Goats", true}, {"species", "Goat", false}, {"species", "goats", false},
		{"documentType", "eAML2", true}, {"processingFlags", "SLAU", true}, {"nosuchlist", "SLAU", false},
	}
	for _, tt := range has {
		if got := l.Has(tt.list, tt.code); got != tt.want {
			t.Errorf("Has(%q, %q) = %v, want %v", tt.list, tt.code, got, tt.want)
		}
	}
	// Every Scottish county number is 66 to 98, and every county has one.
	counties, _ := l.List("counties")
	for _, c := range counties {
		scottish := c.Code >= "66" && c.Code <= "98"
		if len(c.Code) != 2 || scottish != (c.Extra["country"] == "Scotland") {
			t.Errorf("county %s %s in %s", c.Code, c.Description, c.Extra["country"])
		}
	}
	// Breeds say their species; exemption codes say whether they exempt.
	for list, prop := range map[string]string{"cattleBreeds": "species", "processingFlags": "exemptsStandstill", "genderSpecies": "species"} {
		entries, _ := l.List(list)
		for _, e := range entries {
			if e.Extra[prop] == "" {
				t.Errorf("%s %s has no %s", list, e.Code, prop)
			}
		}
	}
	bison := map[string]string{}
	cattle, _ := l.List("cattleBreeds")
	for _, e := range cattle {
		bison[e.Code] = e.Extra["species"]
	}
	if bison["BIS"] != "bison" || bison["WBF"] != "buffalo" || bison["HOL"] != "cattle" {
		t.Errorf("cattleBreeds species: BIS %q, WBF %q, HOL %q", bison["BIS"], bison["WBF"], bison["HOL"])
	}
}

func TestOperatorDirectory(t *testing.T) {
	t.Parallel()
	dir := writeDir(t, map[string]string{
		"species.json":   `{"name": "species", "description": "Only these", "value": [{"code": "Sheep", "description": "Sheep"}]}`,
		"colours.json":   `{"name": "colours", "description": "Coat colours", "value": [{"code": "BLK", "description": "Black", "hex": "#000000"}]}`,
		"README.md":      "not a list",
		"notes.json.bak": "{",
	})
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	species, err := l.List("species")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Entry{{Code: "Sheep", Description: "Sheep"}}, species); diff != "" {
		t.Errorf("species replaced (-want +got):\n%s", diff)
	}
	colours, err := l.List("colours")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Entry{{Code: "BLK", Description: "Black", Extra: map[string]string{"hex": "#000000"}}}, colours); diff != "" {
		t.Errorf("colours added (-want +got):\n%s", diff)
	}
	if !l.Has("sheepBreeds", "TEX") || l.Has("species", "Goats") {
		t.Error("other built-in lists must stay, the replaced one must go")
	}
	if n := len(l.Names()); n != len(builtInLists(t).Names())+1 {
		t.Errorf("%d lists, want the built-in ones and colours", n)
	}
}

func TestBadFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		want []string // in the error, besides the file name
	}{
		{"malformed", `{"name": "breeds", "value": [`, nil},
		{"duplicate code", `{"name": "breeds", "description": "d", "value": [{"code": "A", "description": "a"}, {"code": "B", "description": "b"}, {"code": "A", "description": "again"}]}`,
			[]string{"entry 3", `"A"`, "already used"}},
		{"wrong name", `{"name": "other", "description": "d", "value": []}`, []string{`"other"`}},
		{"no description", `{"name": "breeds", "value": []}`, []string{"no description"}},
		{"no value", `{"name": "breeds", "description": "d"}`, []string{`"value"`}},
		{"unknown field", `{"name": "breeds", "description": "d", "values": []}`, []string{"values"}},
		{"empty code", `{"name": "breeds", "description": "d", "value": [{"code": "", "description": "x"}]}`, []string{"entry 1", "code"}},
		{"spaced code", `{"name": "breeds", "description": "d", "value": [{"code": " A", "description": "x"}]}`, []string{"entry 1", "spaces"}},
		{"long code", `{"name": "breeds", "description": "d", "value": [{"code": "` + strings.Repeat("é", MaxCodeLength+1) + `", "description": "x"}]}`,
			[]string{"entry 1", "longer than 64"}},
		{"entry without description", `{"name": "breeds", "description": "d", "value": [{"code": "A"}, {"code": "B", "description": " "}]}`,
			[]string{"entry 1", "entry 2", `"B"`}},
		{"number property", `{"name": "breeds", "description": "d", "value": [{"code": "A", "description": "a", "weight": 3}]}`, []string{"entry 1", "weight"}},
		{"null property", `{"name": "breeds", "description": "d", "value": [{"code": "A", "description": "a", "species": null}]}`, []string{"entry 1", "species"}},
		{"entry not an object", `{"name": "breeds", "description": "d", "value": ["A"]}`, []string{"entry 1"}},
		{"two values", `{"name": "breeds", "description": "d", "value": []} {}`, []string{"more than one"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := writeDir(t, map[string]string{"breeds.json": tt.body})
			_, err := Load(dir)
			if err == nil {
				t.Fatal("Load accepted the file")
			}
			for _, want := range append([]string{"breeds.json"}, tt.want...) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %s", err, want)
				}
			}
		})
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("Load accepted a missing directory")
	}
}

func TestUnknownList(t *testing.T) {
	t.Parallel()
	_, err := builtInLists(t).List("colours")
	var e *livestock.Error
	if !errors.As(err, &e) || e.Kind != livestock.KindNotFound {
		t.Fatalf("List(unknown) = %v, want a KindNotFound *livestock.Error", err)
	}
	if len(e.Fields) != 1 || e.Fields[0].Code != livestock.CodeNotFound || e.Fields[0].Value != "colours" {
		t.Errorf("fields %+v, want one R001 naming the list", e.Fields)
	}
}

func TestEntryJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		entry Entry
		want  string
	}{
		{Entry{Code: "Sheep", Description: "Sheep"}, `{"code":"Sheep","description":"Sheep"}`},
		{Entry{Code: "BIS", Description: "Bison", Extra: map[string]string{"species": "bison", "a": "<&>"}},
			`{"code":"BIS","description":"Bison","a":"\u003c\u0026\u003e","species":"bison"}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.entry)
		if err != nil || string(b) != tt.want {
			t.Errorf("Marshal = %s, %v; want %s", b, err, tt.want)
		}
		var back Entry
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.entry, back); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
	}
}
