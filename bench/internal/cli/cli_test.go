package cli

import (
	"errors"
	"flag"
	"io"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args     []string
		database string
		ok       bool
	}{
		{nil, "", true},
		{[]string{"--database", "x.db"}, "x.db", true},
		{[]string{"--database", "x.db", "extra"}, "x.db", false},
		{[]string{"--nope"}, "", false},
	} {
		var db string
		err := Parse(Flags("test", io.Discard, &db), tc.args)
		if (err == nil) != tc.ok || db != tc.database {
			t.Errorf("Parse(%q) = %v, database %q; want ok %v, %q", tc.args, err, db, tc.ok, tc.database)
		}
	}
	var db string
	if err := Parse(Flags("test", io.Discard, &db), []string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("Parse(-h) = %v; want flag.ErrHelp", err)
	}
}
