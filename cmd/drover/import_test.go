package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store/sqlite"
)

func TestImport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, file := filepath.Join(dir, "d.db"), filepath.Join(dir, "registry.json")
	write := func(s string) {
		if err := os.WriteFile(file, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"holdings": [{"holding": "12/345/6789", "type": "producer"}, {"holding": "12/345/6790", "type": "abattoir", "mhs": "1234"}],
	        "users": [{"userName": "jsmith", "subject": "idp|42", "role": "keeper", "holdings": ["12/345/6789"]}]}`)
	getenv := func(k string) string { return map[string]string{"DROVER_DATABASE": db}[k] }
	if err := run(context.Background(), []string{"import", file}, getenv, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	u, err := st.UserBySubject(context.Background(), "idp|42")
	if err != nil || u.Name != "jsmith" || !u.CanActFor(livestock.MustCPH("12/345/6789")) || u.CanActFor(livestock.MustCPH("12/345/6790")) {
		t.Errorf("imported user = %+v, %v", u, err)
	}

	// The keeper moves to the second holding: without --update the new
	// link is added and the old one kept; with it, the holdings listed
	// are exactly theirs.
	write(`{"users": [{"userName": "jsmith", "subject": "idp|42", "role": "keeper", "holdings": ["12/345/6790"]}]}`)
	for _, update := range []bool{false, true} {
		args := []string{"import", file}
		if update {
			args = []string{"import", "--update", file}
		}
		if err := run(context.Background(), args, getenv, io.Discard, io.Discard); err != nil {
			t.Fatal(err)
		}
		u, err := st.UserBySubject(context.Background(), "idp|42")
		if err != nil || u.CanActFor(livestock.MustCPH("12/345/6789")) == update || !u.CanActFor(livestock.MustCPH("12/345/6790")) {
			t.Errorf("update %v: user = %+v, %v", update, u, err)
		}
	}

	write(`{"holdings": [{"holding": "12/345/6789", "type": "producer"}, {"holding": "12/345/6789", "type": "market"}],
	        "users": [{"userName": "jsmith", "subject": "a", "role": "keeper"}, {"userName": "jsmith", "subject": "b", "role": "keeper"}]}`)
	err = run(context.Background(), []string{"import", "--update", file}, getenv, io.Discard, io.Discard)
	for _, want := range []string{"holdings[1].holding: 12/345/6789 is listed already, at holdings[0]", "users[1].userName: jsmith is listed already, at users[0]"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("repeated entries: error %v does not say %s", err, want)
		}
	}

	write(`{"holdings": [{"holding": "12/345/678", "type": "barn", "mhs": "12"}],
	        "users": [{"userName": "x", "role": "admin", "holdings": ["nope"]}]}`)
	err = run(context.Background(), []string{"import", file}, getenv, io.Discard, io.Discard)
	for _, want := range []string{"holdings[0].holding", "holdings[0].type", "holdings[0].mhs", "users[0].role", "users[0]: userName and subject", "users[0].holdings[0]"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bad file: error %v does not name %s", err, want)
		}
	}
	write(`{"holdings": [], "extra": 1}`)
	if err := run(context.Background(), []string{"import", file}, getenv, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "extra") {
		t.Errorf("unknown field: %v", err)
	}
}

// TestImportRegister: a production register starts from the file's
// flocks, issued tags and animals, added beside what exists; every wrong
// entry is named at once.
func TestImportRegister(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, file := filepath.Join(dir, "d.db"), filepath.Join(dir, "registry.json")
	getenv := func(k string) string { return map[string]string{"DROVER_DATABASE": db}[k] }
	write := func(s string) {
		if err := os.WriteFile(file, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"holdings": [{"holding": "12/345/6789", "type": "producer"}],
	        "flocks": [{"mark": "130181", "species": "Sheep", "holding": "12/345/6789"}],
	        "tags": [{"tag": "UK0130181 00001", "species": "sheep", "issuedOn": "2025-01-06"},
	                 {"tag": "UK0130181 00002", "species": "sheep", "issuedOn": "2025-01-06"}],
	        "animals": [{"tag": "UK0130181 00001", "species": "sheep", "sex": "female", "birthDate": "2025-03-01",
	                     "holding": "12/345/6789"}]}`)
	var out strings.Builder
	if err := run(context.Background(), []string{"import", file}, getenv, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "1 flocks, 2 tags and 1 animals") {
		t.Errorf("import said %q", out.String())
	}
	st, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	found, err := st.AnimalsByID(context.Background(), []string{"UK0130181 00001", "UK0130181 00002"})
	a, ok := found["UK0130181 00001"]
	if err != nil || len(found) != 1 || !ok || a.CPH != livestock.MustCPH("12/345/6789") || a.State != livestock.StateRegistered ||
		a.Sex != livestock.SexFemale || a.OnSince.Format("2006-01-02") != "2025-03-01" {
		t.Errorf("imported animals = %+v, %v; want the one ewe on 12/345/6789 since her birth", found, err)
	}

	write(`{"flocks": [{"mark": "x", "species": "cows", "holding": "1"}],
	        "tags": [{"tag": "UK0130181 0001", "species": "sheep", "issuedOn": "2025-13-01"}],
	        "animals": [{"tag": "UK0130181 00001", "species": "sheep", "sex": "ewe", "birthDate": "2025-03-01",
	                     "holding": "12/345/6789", "onSince": "2025-02-01"},
	                    {"tag": "UK0130181 00001", "species": "sheep", "sex": "male", "birthDate": "2999-03-01", "holding": "12/345/6789"}]}`)
	err = run(context.Background(), []string{"import", file}, getenv, io.Discard, io.Discard)
	for _, want := range []string{"flocks[0].species", "flocks[0].mark", "flocks[0].holding", "tags[0].tag",
		"animals[0].sex", "animals[0].onSince", "animals[1].tag: UK0130181 00001 is listed already", "animals[1].birthDate: 2999-03-01 is in the future"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bad register: error %v does not name %s", err, want)
		}
	}

	// Entries well formed but naming what neither the file nor the
	// registry holds are each named, and nothing is written.
	write(`{"flocks": [{"mark": "130183", "species": "goats", "holding": "12/345/0000"}],
	        "tags": [{"tag": "UK0130182 00001", "species": "sheep", "issuedOn": "2025-01-06"},
	                 {"tag": "UK0130181 00003", "species": "goats", "issuedOn": "2025-01-06"}],
	        "animals": [{"tag": "UK0130181 00005", "species": "sheep", "sex": "male", "birthDate": "2025-03-01", "holding": "12/345/0001"}]}`)
	err = run(context.Background(), []string{"import", file}, getenv, io.Discard, io.Discard)
	for _, want := range []string{"flocks[0].holding: no holding 12/345/0000", "tags[0].tag: no flock or herd 130182",
		"tags[1].species: flock 130181 is of sheep", "animals[0].holding: no holding 12/345/0001"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("unknown references: error %v does not name %s", err, want)
		}
	}
	if found, _ := st.AnimalsByID(context.Background(), []string{"UK0130181 00005"}); len(found) != 0 {
		t.Error("a refused file wrote an animal")
	}
}
