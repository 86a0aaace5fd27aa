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

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// importFile is what `drover import` reads: the holdings of the registry
// and the users who act for them, as an external issuer's subjects.
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
}

// importData adds holdings and users from a JSON file, for production
// mode, where each token's subject must map to a user record. It adds what
// is missing and changes nothing that exists; users get no password (they
// sign in at the external issuer).
func importData(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("drover import", flag.ContinueOnError)
	var dsn string
	databaseFlag(fs, &dsn)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: drover import [--database …] FILE.json

FILE holds {"holdings": [{"holding": "01/100/0253", "type": "abattoir", "mhs": "0035"}, …],
            "users": [{"userName": "jsmith", "subject": "<token sub>", "role": "keeper",
                       "holdings": ["01/100/0253"]}, …]}
Rows that exist are left as they are.`)
	}
	if err := parse(fs, args, getenv, stderr); err != nil && !errors.Is(err, errExtraArgs) {
		return err
	}
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
	st, err := openStore(ctx, dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.Seed(ctx, seed); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "drover: imported %d holdings and %d users (existing rows kept)\n", len(seed.Holdings), len(seed.Users))
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
	for i, h := range f.Holdings {
		cph, err := livestock.ParseCPH(h.Holding)
		if err != nil {
			problems = append(problems, fmt.Errorf("holdings[%d].holding: %w", i, err))
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
	return seed, errors.Join(problems...)
}
