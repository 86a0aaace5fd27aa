package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// importFile is what `drover import` reads: the holdings of the registry
// and the users who act for them, as an external issuer's subjects; and
// the register a production service starts from: flocks and herds, the
// tags issued to them, and the animals and where they are.
type importFile struct {
	Holdings []struct {
		Holding string `json:"holding"`
		Type    string `json:"type"`
		MHS     string `json:"mhs"`
	} `json:"holdings"`
	Users []struct {
		UserName string   `json:"userName"`
		Subject  string   `json:"subject"`
		Role     string   `json:"role"`
		Holdings []string `json:"holdings"`
	} `json:"users"`
	Flocks []struct {
		Mark    string `json:"mark"`
		Species string `json:"species"`
		Holding string `json:"holding"`
	} `json:"flocks"`
	Tags []struct {
		Tag      string `json:"tag"`
		Species  string `json:"species"`
		IssuedOn string `json:"issuedOn"`
	} `json:"tags"`
	Animals []struct {
		Tag       string `json:"tag"`
		Species   string `json:"species"`
		Sex       string `json:"sex"`
		BirthDate string `json:"birthDate"`
		Holding   string `json:"holding"`
		OnSince   string `json:"onSince"` // the birth date when empty
	} `json:"animals"`
}

// importData adds holdings and users from a JSON file, for production
// mode, where each token's subject must map to a user record. It makes a
// database that has no mode yet a production one, and refuses a sandbox. It adds what
// is missing and, unless --update is given, changes nothing that exists;
// with --update the holdings and users the file names take its values (a
// user's holdings become exactly those listed: how an operator withdraws
// a keeper's access). Users get no password (they sign in at the external
// issuer); one they had is kept.
func importData(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("drover import", flag.ContinueOnError)
	var dsn string
	databaseFlag(fs, &dsn)
	update := fs.Bool("update", false, "make holdings and users that exist take the file's values, a user's holdings becoming exactly those listed")
	if err := parse(fs, args, getenv, stderr); err != nil && !errors.Is(err, errExtraArgs) {
		if errors.Is(err, flag.ErrHelp) { // -h showed the flags; the file's form follows them
			fmt.Fprintln(stderr, "\n"+importUsage)
		}
		return err
	}
	// After parse, which sets the usage every command shares.
	fs.Usage = func() { fmt.Fprintln(stderr, importUsage) }
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("import takes one file")
	}
	data, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	seed, err := decodeImport(data)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	seed.Update = *update
	st, err := openStore(ctx, dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := checkReferences(ctx, st, seed); err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	// Real users make a production database: a sandbox server refuses it
	// from now on, rather than seeding test users beside them.
	switch m, err := st.ClaimMode(ctx, store.ModeProduction); {
	case err != nil:
		return fmt.Errorf("database mode: %w", err)
	case m != store.ModeProduction:
		return errors.New("--database is a sandbox database: drover import adds production users, " +
			"so give --database the production database (the one drover serve --issuer serves, or a new one)")
	}
	if _, err := st.Seed(ctx, seed); err != nil {
		return err
	}
	kept := "existing rows kept"
	if seed.Update {
		kept = "existing rows updated"
	}
	fmt.Fprintf(stdout, "drover: imported %d holdings, %d users, %d flocks, %d tags and %d animals (%s)\n",
		len(seed.Holdings), len(seed.Users), len(seed.Flocks), len(seed.Tags), len(seed.Animals), kept)
	return nil
}

// decodeImport checks every entry and reports all the problems at once.
func decodeImport(data []byte) (store.Seed, error) {
	var f importFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return store.Seed{}, err
	}
	var seed store.Seed
	var problems []error
	holdingAt, userAt := map[string]int{}, map[string]int{} // where each was first listed
	for i, h := range f.Holdings {
		cph, err := livestock.ParseCPH(h.Holding)
		if err != nil {
			problems = append(problems, fmt.Errorf("holdings[%d].holding: %w", i, err))
		} else if j, ok := holdingAt[cph.String()]; ok {
			problems = append(problems, fmt.Errorf("holdings[%d].holding: %s is listed already, at holdings[%d]", i, cph, j))
		} else {
			holdingAt[cph.String()] = i
		}
		if !livestock.HoldingType(h.Type).Valid() {
			problems = append(problems, fmt.Errorf("holdings[%d].type: %q is not a holding type", i, h.Type))
		}
		var mhs livestock.MHS
		if h.MHS != "" {
			if mhs, err = livestock.ParseMHS(h.MHS); err != nil {
				problems = append(problems, fmt.Errorf("holdings[%d].mhs: %w", i, err))
			}
		}
		seed.Holdings = append(seed.Holdings, livestock.Holding{CPH: cph, Type: livestock.HoldingType(h.Type), MHS: mhs})
	}
	for i, u := range f.Users {
		role := livestock.Role(u.Role)
		if role != livestock.RoleKeeper && role != livestock.RoleInspector {
			problems = append(problems, fmt.Errorf("users[%d].role: %q is not keeper or inspector", i, u.Role))
		}
		if u.UserName == "" || u.Subject == "" {
			problems = append(problems, fmt.Errorf("users[%d]: userName and subject are required", i))
		} else if j, ok := userAt[u.UserName]; ok {
			problems = append(problems, fmt.Errorf("users[%d].userName: %s is listed already, at users[%d]", i, u.UserName, j))
		} else {
			userAt[u.UserName] = i
		}
		su := store.SeedUser{Name: u.UserName, Subject: u.Subject, Role: role}
		for j, h := range u.Holdings {
			cph, err := livestock.ParseCPH(h)
			if err != nil {
				problems = append(problems, fmt.Errorf("users[%d].holdings[%d]: %w", i, j, err))
			}
			su.Holdings = append(su.Holdings, cph)
		}
		seed.Users = append(seed.Users, su)
	}
	problems = append(problems, decodeRegister(f, &seed)...)
	return seed, errors.Join(problems...)
}

// decodeRegister reads the file's flocks, tags and animals into seed, and
// lists every entry that is wrong.
func decodeRegister(f importFile, seed *store.Seed) (problems []error) {
	bad := func(format string, a ...any) { problems = append(problems, fmt.Errorf(format, a...)) }
	for i, fl := range f.Flocks {
		sp, err := importSpecies(fl.Species)
		if err != nil {
			bad("flocks[%d].species: %w", i, err)
		}
		mark, err := livestock.ParseFlockMark(fl.Mark)
		if err != nil {
			bad("flocks[%d].mark: %w", i, err)
		}
		cph, err := livestock.ParseCPH(fl.Holding)
		if err != nil {
			bad("flocks[%d].holding: %w", i, err)
		}
		seed.Flocks = append(seed.Flocks, store.Flock{Mark: mark, Species: sp, CPH: cph})
	}
	// tagOf reads entry i of list: its species and tag, each tag once.
	tagOf := func(list string, seen map[string]int, i int, species, text string) (livestock.Species, livestock.Tag, bool) {
		sp, err := importSpecies(species)
		if err != nil {
			bad("%s[%d].species: %w", list, i, err)
			return sp, livestock.Tag{}, false
		}
		tag, err := livestock.ParseTag(sp, text)
		if err != nil {
			bad("%s[%d].tag: %w", list, i, err)
			return sp, tag, false
		}
		if j, ok := seen[tag.String()]; ok {
			bad("%s[%d].tag: %s is listed already, at %s[%d]", list, i, tag, list, j)
		}
		seen[tag.String()] = i
		return sp, tag, true
	}
	tags := map[string]int{}
	for i, t := range f.Tags {
		sp, tag, ok := tagOf("tags", tags, i, t.Species, t.Tag)
		if !ok {
			continue
		}
		on, err := livestock.ParseDate(t.IssuedOn)
		if err != nil {
			bad("tags[%d].issuedOn: %w", i, err)
		}
		seed.Tags = append(seed.Tags, store.IssuedTag{Identifier: tag, Mark: tag.Mark(), Species: sp, IssuedOn: on.Time()})
	}
	animals := map[string]int{}
	for i, a := range f.Animals {
		sp, tag, ok := tagOf("animals", animals, i, a.Species, a.Tag)
		if !ok {
			continue
		}
		rec := store.Animal{Identifier: tag, Species: sp, State: livestock.StateRegistered}
		var err error
		if rec.Sex, err = livestock.ParseSex(a.Sex); err != nil {
			bad("animals[%d].sex: %w", i, err)
		}
		born, err := livestock.ParseDate(a.BirthDate)
		if err != nil {
			bad("animals[%d].birthDate: %w", i, err)
		}
		rec.BirthDate, rec.OnSince = born.Time(), born.Time()
		if a.OnSince != "" {
			on, err := livestock.ParseDate(a.OnSince)
			if err != nil {
				bad("animals[%d].onSince: %w", i, err)
			} else if on.Before(born) {
				bad("animals[%d].onSince: %s is before its birth date %s", i, on, born)
			}
			rec.OnSince = on.Time()
		}
		if rec.CPH, err = livestock.ParseCPH(a.Holding); err != nil {
			bad("animals[%d].holding: %w", i, err)
		}
		if today := livestock.UKDate(time.Now()); today.Before(born) {
			bad("animals[%d].birthDate: %s is in the future", i, born)
		}
		seed.Animals = append(seed.Animals, rec)
	}
	return problems
}

// checkReferences names every holding and flock that seed refers to and
// neither seed nor the database holds, and every tag of a flock of another
// species, before anything is written: the database's foreign keys would
// refuse the whole file without saying which entry.
func checkReferences(ctx context.Context, st store.Store, seed store.Seed) error {
	var problems []error
	holdings := map[livestock.CPH]bool{}
	for _, h := range seed.Holdings {
		holdings[h.CPH] = true
	}
	known := func(c livestock.CPH) (bool, error) {
		if ok, seen := holdings[c]; seen {
			return ok, nil
		}
		_, err := st.Holding(ctx, c)
		if livestock.IsNotFound(err) {
			holdings[c] = false
			return false, nil
		}
		holdings[c] = err == nil
		return err == nil, err
	}
	flocks := map[livestock.FlockMark]livestock.Species{}
	for i, f := range seed.Flocks {
		flocks[f.Mark] = f.Species
		if ok, err := known(f.CPH); err != nil {
			return err
		} else if !ok {
			problems = append(problems, fmt.Errorf("flocks[%d].holding: no holding %s is in the file or the registry", i, f.CPH))
		}
	}
	for i, t := range seed.Tags {
		sp, ok := flocks[t.Mark]
		if !ok {
			f, err := st.Flock(ctx, t.Mark)
			if err != nil && !livestock.IsNotFound(err) {
				return err
			}
			if err != nil {
				problems = append(problems, fmt.Errorf("tags[%d].tag: no flock or herd %s is in the file or the registry", i, t.Mark))
				continue
			}
			sp, flocks[t.Mark] = f.Species, f.Species
		}
		if sp != t.Species {
			problems = append(problems, fmt.Errorf("tags[%d].species: flock %s is of %s", i, t.Mark, sp.RegistrationName()))
		}
	}
	for i, a := range seed.Animals {
		if ok, err := known(a.CPH); err != nil {
			return err
		} else if !ok {
			problems = append(problems, fmt.Errorf("animals[%d].holding: no holding %s is in the file or the registry", i, a.CPH))
		}
	}
	return errors.Join(problems...)
}

// importSpecies reads a species as either interface spells it ("Sheep"
// or "sheep").
func importSpecies(s string) (livestock.Species, error) {
	if sp, err := livestock.ParseMovementSpecies(s); err == nil {
		return sp, nil
	}
	return livestock.ParseRegistrationSpecies(s)
}

// importUsage is how drover import is called, and its file's form.
const importUsage = `usage: drover import [--database …] [--update] FILE.json

FILE holds {"holdings": [{"holding": "01/100/0253", "type": "abattoir", "mhs": "0035"}, …],
            "users": [{"userName": "jsmith", "subject": "<token sub>", "role": "keeper",
                       "holdings": ["01/100/0253"]}, …],
            "flocks": [{"mark": "130181", "species": "sheep", "holding": "01/100/0253"}, …],
            "tags": [{"tag": "UK0130181 00001", "species": "sheep", "issuedOn": "2025-01-06"}, …],
            "animals": [{"tag": "UK0130181 00001", "species": "sheep", "sex": "female",
                         "birthDate": "2025-03-01", "holding": "01/100/0253",
                         "onSince": "2025-03-01"}, …]}
Every section is optional; animals are the living ones, registered where they
are. Each holding and flock named must be in FILE or in the database. Rows that exist are left as they are, unless
--update is given: then the holdings and users FILE names take its values,
and each user's holdings become exactly those listed ("holdings": []
withdraws them all). Holdings and users FILE does not name are never
changed; flocks, tags and animals are only ever added.`
